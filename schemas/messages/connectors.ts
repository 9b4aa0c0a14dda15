import { z } from 'zod';
import { ConnectorTransportSchema, McpToolMetadataShape } from '../documents/connector';
import {
  ConnectorSlugSchema,
  CreateConnectorBodySchema,
  PermissionScopeInputSchema,
  UpdateConnectorBodySchema,
} from '../http/connectors';

/**
 * Messages of `connectors:<accountId>` (actors/connectors/connectors.actor.ts). Every message
 * carries the caller's principal as `auth`; the actor checks that it acts for that account.
 */

export const ConnectorsListMessageSchema = z.object({});
export const ConnectorsGetMessageSchema = z.object({ slug: ConnectorSlugSchema });
export const ConnectorsCreateMessageSchema = CreateConnectorBodySchema;
export const ConnectorsUpdateMessageSchema = z.object({
  slug: ConnectorSlugSchema,
  changes: UpdateConnectorBodySchema,
});
export const ConnectorsDeleteMessageSchema = z.object({ slug: ConnectorSlugSchema });
export const ConnectorsRefreshMessageSchema = z.object({ slug: ConnectorSlugSchema });

/** Apps, workflows and skills a call is made for (checked against `permissionScope`, kept in `usedBy`). */
export const ConnectorCallRelatedSchema = PermissionScopeInputSchema;
export type ConnectorCallRelated = z.infer<typeof ConnectorCallRelatedSchema>;

/** The tool names a server may announce and the router can address (`mcp.<slug>.<tool>`). */
export const CONNECTOR_TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export const ConnectorsCallMessageSchema = z.object({
  slug: ConnectorSlugSchema,
  tool: z.string().regex(CONNECTOR_TOOL_NAME, 'invalid tool name'),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** Longest the call may take, in ms (capped by the pool's maximum and the request's deadline). */
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  related: ConnectorCallRelatedSchema.optional(),
});
export type ConnectorsCallMessage = z.input<typeof ConnectorsCallMessageSchema>;

/** `connectors.describe`: one tool of an enabled connector (the router's resolver). */
export const ConnectorsDescribeMessageSchema = z.object({
  slug: ConnectorSlugSchema,
  tool: z.string().regex(CONNECTOR_TOOL_NAME, 'invalid tool name'),
});
export const ConnectorsDescribeReplySchema = z.object({
  readOnly: z.boolean(),
  transport: ConnectorTransportSchema,
});

/** `connectors.tools`: the tools of the account's enabled connectors, as registry entries. */
export const ConnectorsToolsMessageSchema = z.object({});
export const ConnectorToolEntrySchema = z.object({
  ...McpToolMetadataShape,
  name: z.string(),
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  readOnly: z.boolean(),
});
export type ConnectorToolEntry = z.infer<typeof ConnectorToolEntrySchema>;
export const ConnectorsToolsReplySchema = z.object({ tools: z.array(ConnectorToolEntrySchema) });

/** The upstream MCP methods a connector's resources, prompts and completions are federated by. */
export const CONNECTOR_FORWARDED_METHODS = [
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  // Upstream resource updates are relayed to `/mcp` subscribers (connector-upstream.ts). No
  // unsubscribe: other clients of the account may follow the same upstream URI.
  'resources/subscribe',
] as const;
export type ConnectorForwardedMethod = (typeof CONNECTOR_FORWARDED_METHODS)[number];

/** `connectors.forward`: one of those requests to an enabled connector (docs/connectors.md). */
export const ConnectorsForwardMessageSchema = z.object({
  slug: ConnectorSlugSchema,
  method: z.enum(CONNECTOR_FORWARDED_METHODS),
  params: z.record(z.string(), z.unknown()).default({}),
});
export type ConnectorsForwardMessage = z.input<typeof ConnectorsForwardMessageSchema>;

/** Internal: the outcome of one call, told by the actor's deferred work to itself. */
export const ConnectorsOutcomeMessageSchema = z.object({
  connectorId: z.string(),
  tool: z.string(),
  success: z.boolean(),
  at: z.number().int(),
  /** Set when the call said something about the server's reachability. */
  health: z.enum(['active', 'error']).optional(),
  error: z.string().max(500).optional(),
  related: ConnectorCallRelatedSchema.optional(),
});
export type ConnectorsOutcomeMessage = z.infer<typeof ConnectorsOutcomeMessageSchema>;

/** A tool result, normalized: what `mcp.<slug>.<tool>` returns through the router. */
export const ConnectorCallResultSchema = z.object({
  content: z.array(z.unknown()),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
});
export type ConnectorCallResult = z.infer<typeof ConnectorCallResultSchema>;

/** Broadcast when a connector is removed or disabled: every node closes its sessions to it. */
export const CONNECTOR_CLOSED_BROADCAST = 'connector.closed';
export const ConnectorClosedBroadcastSchema = z.object({ connectorId: z.string() });

/**
 * Broadcast when a connector's server sent `notifications/resources/updated {uri}` (its upstream
 * URI): every node's `/mcp` streams tell the account's subscribers of `connector://<slug>/<uri>`.
 */
export const CONNECTOR_RESOURCE_UPDATED_BROADCAST = 'connector.resource-updated';
export const ConnectorResourceUpdatedBroadcastSchema = z.object({
  accountId: z.string(),
  slug: z.string(),
  uri: z.string().max(4096),
});
