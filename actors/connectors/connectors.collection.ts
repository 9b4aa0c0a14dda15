import { randomBytes } from 'node:crypto';
import type { UpdateFilter } from 'mongodb';
import {
  ConnectorDocumentSchema,
  type AuditOutcome,
  type ConnectorDocument,
  type ConnectorDocumentInput,
  type SealedPair,
} from '../../schemas/documents/connector';
import type { ConnectorView, CreateConnectorBody } from '../../schemas/http/connectors';
import { CONNECTOR_TOOL_NAME, type ConnectorToolEntry } from '../../schemas/messages/connectors';
import { defineCollection } from '../../src/store/mongo';
import { maskArgs, maskUrl, type ConnectorSealer, type SealedField } from './connector-secrets';
import type { Discovery } from './connector-pool';
import type { ConnectorSpec } from './mcp-session';

/**
 * `connectors`: the MCP connectors of accounts.
 *
 * - `account_slug_unique`: a slug is unique per account (`mcp.<slug>.<tool>` names one connector).
 * - `account_created`: an account's connectors in creation order (`GET /api/connectors`).
 */
export const connectorsCollection = defineCollection({
  name: 'connectors',
  schema: ConnectorDocumentSchema,
  indexes: [
    { key: { accountId: 1, slug: 1 }, name: 'account_slug_unique', unique: true },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ],
});

/** A new internal connector id (`con_` + 96 random bits). Never returned in a body. */
export function newConnectorId(): string {
  return `con_${randomBytes(12).toString('hex')}`;
}

/** A connector's transport settings with its values opened, and what to store after a rotation. */
export interface OpenedConnector {
  spec: ConnectorSpec;
  /** The lists holding a value that was not under the current master key, re-sealed (store them). */
  resealed?: Partial<Record<SealedField, SealedPair[]>>;
}

/**
 * The transport settings with secrets opened, for the pool. Throws the sealer's error (naming the
 * connector and the header or variable, never a value) when a value does not open.
 */
export function openConnector(doc: ConnectorDocument, sealer: ConnectorSealer): OpenedConnector {
  const env = sealer.openPairs(doc, 'env', doc.env);
  const headers = sealer.openPairs(doc, 'headers', doc.headers);
  const resealed: Partial<Record<SealedField, SealedPair[]>> = {
    ...(env.resealed ? { env: env.resealed } : {}),
    ...(headers.resealed ? { headers: headers.resealed } : {}),
  };
  const spec: ConnectorSpec = {
    id: doc._id,
    accountId: doc.accountId,
    slug: doc.slug,
    transport: doc.transport,
    command: doc.command,
    args: doc.args,
    env: env.values,
    url: doc.url,
    headers: headers.values,
  };
  return Object.keys(resealed).length > 0 ? { spec, resealed } : { spec };
}

/** The newer of two outcomes. */
export function latestOutcome(
  a: AuditOutcome | undefined,
  b: AuditOutcome | undefined,
): AuditOutcome | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.at.getTime() > a.at.getTime() ? b : a;
}

/** The connector as shown (no id, credential-looking values masked). `pending`: an outcome not yet written. */
export function connectorView(
  doc: ConnectorDocument,
  sealer: ConnectorSealer,
  pending?: AuditOutcome,
): ConnectorView {
  const outcome = latestOutcome(doc.lastAuditOutcome, pending) ?? {
    success: doc.health === 'active',
    tool: 'tools/list',
    at: doc.discoveredAt,
  };
  return {
    slug: doc.slug,
    name: doc.name,
    transport: doc.transport,
    toolCount: doc.tools.length,
    healthStatus: doc.enabled ? doc.health : 'disabled',
    permissionScope: doc.permissionScope,
    lastAuditOutcome: { success: outcome.success, tool: outcome.tool, at: outcome.at.toISOString() },
    lastError: doc.lastError ? { message: doc.lastError.message, at: doc.lastError.at.toISOString() } : null,
    usedBy: doc.usedBy,
    tools: doc.tools.map((t) => ({
      name: t.name,
      description: t.description,
      ...(t.title !== undefined ? { title: t.title } : {}),
    })),
    serverInfo: doc.serverInfo ?? null,
    ...(doc.transport === 'stdio'
      ? { command: doc.command, args: maskArgs(doc.args), env: sealer.showAll(doc._id, doc.env) }
      : { url: maskUrl(doc.url ?? ''), headers: sealer.showAll(doc._id, doc.headers) }),
    discoveredAt: doc.discoveredAt.toISOString(),
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** A connector's first document, after a successful discovery. */
export function newConnectorDocument(input: {
  id: string;
  accountId: string;
  body: CreateConnectorBody;
  env: SealedPair[];
  headers: SealedPair[];
  found: Discovery;
}): ConnectorDocumentInput {
  const { body, found } = input;
  const now = new Date();
  return {
    _id: input.id,
    accountId: input.accountId,
    slug: body.slug,
    name: body.name ?? body.slug,
    transport: body.transport,
    ...(body.transport === 'stdio'
      ? { command: body.command, args: body.args ?? [], env: input.env }
      : { url: body.url, headers: input.headers }),
    permissionScope: body.permissionScope ?? {},
    enabled: true,
    health: 'active',
    lastAuditOutcome: { success: true, tool: 'tools/list', at: now },
    tools: found.tools,
    serverInfo: found.serverInfo,
    discoveredAt: now,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

/** The update of a refresh that reached the server: new tools, healthy again. */
export function discoveredUpdate(found: Discovery, at = new Date()): UpdateFilter<ConnectorDocument> {
  return {
    $set: {
      tools: found.tools,
      ...(found.serverInfo ? { serverInfo: found.serverInfo } : {}),
      health: 'active',
      lastAuditOutcome: { success: true, tool: 'tools/list', at },
      discoveredAt: at,
      updatedAt: at,
    },
    $unset: { lastError: '' },
  };
}

/**
 * The update of a refresh that failed: the tools are kept, the health and the reason recorded
 * (`reason`: see `lastError.reason` in schemas/documents/connector.ts).
 */
export function failedDiscoveryUpdate(
  message: string,
  at = new Date(),
  reason?: string,
): UpdateFilter<ConnectorDocument> {
  return {
    $set: {
      health: 'error',
      lastError: { message: message.slice(0, 500), at, ...(reason ? { reason } : {}) },
      lastAuditOutcome: { success: false, tool: 'tools/list', at },
      updatedAt: at,
    },
  };
}

/** The router's entries for these connectors' tools (`mcp.<slug>.<tool>`), sorted by name. */
export function routerToolEntries(docs: readonly ConnectorDocument[]): ConnectorToolEntry[] {
  const tools: ConnectorToolEntry[] = [];
  for (const doc of docs) {
    for (const tool of doc.tools) {
      if (!CONNECTOR_TOOL_NAME.test(tool.name)) continue; // not addressable as mcp.<slug>.<tool>
      tools.push({
        name: `mcp.${doc.slug}.${tool.name}`,
        description: tool.description,
        inputSchema: { ...tool.inputSchema, type: 'object' },
        readOnly: tool.readOnly,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      });
    }
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
