import { z } from 'zod';

/** A connector's slug: its name in tool names (`mcp.<slug>.<tool>`) and routes; unique per account. */
export const CONNECTOR_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

export const CONNECTOR_TRANSPORTS = ['stdio', 'http'] as const;
export const ConnectorTransportSchema = z.enum(CONNECTOR_TRANSPORTS);
export type ConnectorTransport = z.infer<typeof ConnectorTransportSchema>;

/** What the last connection or discovery found; `disabled` is shown instead when `enabled` is false. */
export const ConnectorHealthSchema = z.enum(['active', 'error']);

/** Lists of app, workflow and skill references. */
export const RefListsSchema = z.object({
  apps: z.array(z.string()).default([]),
  workflows: z.array(z.string()).default([]),
  skills: z.array(z.string()).default([]),
});

/**
 * Who may use the connector besides the account's own agents: per kind, absent = any of that kind,
 * a list = only those (an empty list = none of that kind).
 */
export const PermissionScopeSchema = z.object({
  apps: z.array(z.string()).optional(),
  workflows: z.array(z.string()).optional(),
  skills: z.array(z.string()).optional(),
});
export type PermissionScope = z.infer<typeof PermissionScopeSchema>;

/**
 * A header or environment variable. `value` is sealed (AES-256-GCM, connector-secrets.ts):
 * `v2.<keyId>.<iv>.<tag>.<ciphertext>` (the master key's id: rotation), or `v1.<iv>.<tag>.<ciphertext>`
 * as stored before key ids (still read, re-sealed as `v2` when used or by the startup pass).
 */
export const SealedPairSchema = z.object({
  name: z.string(),
  value: z.string().regex(/^(v1|v2\.[0-9a-f]{12})\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/),
  /** Looks like a credential: never shown, even masked partly. */
  secret: z.boolean(),
});
export type SealedPair = z.infer<typeof SealedPairSchema>;

/**
 * What MCP says of a tool besides its name, description and input (kept through federation, so
 * that `mcp.<slug>.<tool>` lists as the server described it): `title`, `outputSchema` (a JSON
 * Schema of `type: "object"`) and `annotations` (every hint the server gave, primitives only).
 */
export const McpToolMetadataShape = {
  title: z.string().optional(),
  outputSchema: z.looseObject({ type: z.literal('object') }).optional(),
  annotations: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
};

/** One tool the server announced at the last discovery. */
export const ConnectorToolSchema = z.object({
  ...McpToolMetadataShape,
  name: z.string(),
  description: z.string(),
  /** The server's JSON Schema, with `type: "object"` forced (MCP clients reject anything else). */
  inputSchema: z.record(z.string(), z.unknown()),
  /** The server's `readOnlyHint` annotation (false when absent: the call may change things). */
  readOnly: z.boolean(),
});
export type ConnectorTool = z.infer<typeof ConnectorToolSchema>;

export const AuditOutcomeSchema = z.object({ success: z.boolean(), tool: z.string(), at: z.date() });
export type AuditOutcome = z.infer<typeof AuditOutcomeSchema>;

/**
 * An MCP connector (collection `connectors`, `_id` `con_…`, never returned in a body). Written by
 * the `connectors:<accountId>` actor only.
 */
export const ConnectorDocumentSchema = z.object({
  _id: z.string().regex(/^con_[a-f0-9]{24}$/),
  accountId: z.string(),
  slug: z.string().regex(CONNECTOR_SLUG_PATTERN),
  name: z.string(),
  transport: ConnectorTransportSchema,
  /** stdio: the program and its arguments (checked against MCP_STDIO_ALLOWLIST at every start). */
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  env: z.array(SealedPairSchema).default([]),
  /** http: the Streamable HTTP endpoint. */
  url: z.string().optional(),
  headers: z.array(SealedPairSchema).default([]),
  permissionScope: PermissionScopeSchema.default({}),
  enabled: z.boolean(),
  health: ConnectorHealthSchema,
  /**
   * Why `health` is `error`. `reason` (never shown) marks errors the service clears by itself:
   * `connector_key_unknown`, a value under a master key not held, cleared once it is re-sealed.
   */
  lastError: z.object({ message: z.string(), at: z.date(), reason: z.string().optional() }).optional(),
  lastAuditOutcome: AuditOutcomeSchema.optional(),
  usedBy: RefListsSchema.default({ apps: [], workflows: [], skills: [] }),
  tools: z.array(ConnectorToolSchema),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  discoveredAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
  version: z.number().int().nonnegative(),
});
export type ConnectorDocument = z.infer<typeof ConnectorDocumentSchema>;
export type ConnectorDocumentInput = z.input<typeof ConnectorDocumentSchema>;
