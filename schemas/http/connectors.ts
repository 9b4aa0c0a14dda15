import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import { CONNECTOR_SLUG_PATTERN, ConnectorTransportSchema } from '../documents/connector';

/** `/api/connectors` (docs/connectors.md). Request bodies, path/query parameters and the shown record. */

/** Most connectors one account may hold. */
export const MAX_CONNECTORS_PER_ACCOUNT = 50;

/** No control characters (tab aside): they would end up in command lines, headers and logs. */
const noControl = (v: string) => !/\p{Cc}/u.test(v.replace(/\t/g, ''));
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export const ConnectorSlugSchema = z
  .string()
  .regex(
    CONNECTOR_SLUG_PATTERN,
    'must be 2-40 characters: lower-case letters, digits and "-", not starting with "-"',
  );

const RefListSchema = z.array(z.string().trim().min(1).max(200)).max(100);

/** Who may use the connector (besides the account's own agents); see docs/connectors.md. */
export const PermissionScopeInputSchema = z.object({
  apps: RefListSchema.optional(),
  workflows: RefListSchema.optional(),
  skills: RefListSchema.optional(),
});

const limitedRecord = <V extends z.ZodType>(key: z.ZodString, value: V, max: number) =>
  z.record(key, value).refine((r) => Object.keys(r).length <= max, { message: `at most ${max} entries` });

/** A connector's display name (create and update): the display-name rule of display-text.ts. */
const ConnectorNameSchema = displayNameSchema(100);

export const CreateConnectorBodySchema = z
  .object({
    slug: ConnectorSlugSchema,
    name: ConnectorNameSchema.optional(),
    transport: ConnectorTransportSchema,
    /** stdio: the program (a path, or a name looked up on the worker's PATH). */
    command: z.string().min(1).max(4096).refine(noControl, 'must not contain control characters').optional(),
    args: z
      .array(z.string().max(4096).refine(noControl, 'must not contain control characters'))
      .max(64)
      .optional(),
    /** stdio: extra environment variables of the server process (values are never shown). */
    env: limitedRecord(
      z.string().regex(ENV_NAME, 'environment variable names are letters, digits and "_"'),
      z.string().max(8192).refine(noControl, 'must not contain control characters'),
      50,
    ).optional(),
    /** http: the Streamable HTTP endpoint (https; http only to loopback where allowed). */
    url: z.string().trim().min(1).max(2048).optional(),
    /** http: headers sent with every request (credential-looking values are never shown). */
    headers: limitedRecord(
      z.string().regex(HEADER_NAME, 'invalid header name'),
      z.string().max(8192).refine(noControl, 'header values must not contain control characters'),
      50,
    ).optional(),
    permissionScope: PermissionScopeInputSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.transport === 'stdio') {
      if (!body.command) issue('command', 'required for transport "stdio"');
      if (body.url !== undefined) issue('url', 'only for transport "http"');
      if (body.headers !== undefined) issue('headers', 'only for transport "http"');
      return;
    }
    if (body.command !== undefined) issue('command', 'only for transport "stdio"');
    if (body.args !== undefined) issue('args', 'only for transport "stdio"');
    if (body.env !== undefined) issue('env', 'only for transport "stdio"');
    if (!body.url) {
      issue('url', 'required for transport "http"');
      return;
    }
    let url: URL;
    try {
      url = new URL(body.url);
    } catch {
      issue('url', 'must be an absolute URL');
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') issue('url', 'must be an https:// URL');
    if (url.username || url.password) issue('url', 'must not carry credentials (use headers)');
    if (url.hash) issue('url', 'must not have a fragment');
  });
export type CreateConnectorBody = z.infer<typeof CreateConnectorBodySchema>;

export const UpdateConnectorBodySchema = z
  .object({
    name: ConnectorNameSchema.optional(),
    /** false: calls are refused and the connector's tools are not listed (`healthStatus: 'disabled'`). */
    enabled: z.boolean().optional(),
    /** Replaces the whole scope. */
    permissionScope: PermissionScopeInputSchema.optional(),
  })
  .refine((b) => b.name !== undefined || b.enabled !== undefined || b.permissionScope !== undefined, {
    message: 'nothing to change: give name, enabled or permissionScope',
  });
export type UpdateConnectorBody = z.infer<typeof UpdateConnectorBodySchema>;

export const ConnectorSlugParamsSchema = z.object({ slug: ConnectorSlugSchema });
export const ConnectorSlugQuerySchema = z.object({ slug: ConnectorSlugSchema });

const RefListsViewSchema = z.object({
  apps: z.array(z.string()),
  workflows: z.array(z.string()),
  skills: z.array(z.string()),
});

/** A connector as shown: no internal id, no secret value. */
export const ConnectorViewSchema = z.object({
  slug: z.string(),
  name: z.string(),
  transport: ConnectorTransportSchema,
  toolCount: z.number().int(),
  healthStatus: z.enum(['active', 'error', 'disabled']),
  permissionScope: z.object({
    apps: z.array(z.string()).optional(),
    workflows: z.array(z.string()).optional(),
    skills: z.array(z.string()).optional(),
  }),
  lastAuditOutcome: z.object({ success: z.boolean(), tool: z.string(), at: z.string() }),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  usedBy: RefListsViewSchema,
  /** `title`: the server's display name of the tool, when it gave one. */
  tools: z.array(z.object({ name: z.string(), description: z.string(), title: z.string().optional() })),
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** Names with values; credential-looking values are `[redacted]`. */
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  discoveredAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConnectorView = z.infer<typeof ConnectorViewSchema>;

export const ConnectorResponseSchema = z.object({ connector: ConnectorViewSchema });
export const ConnectorListResponseSchema = z.object({ connectors: z.array(ConnectorViewSchema) });
export const ConnectorDeleteResponseSchema = z.object({
  deleted: z.literal(true),
  connector: ConnectorViewSchema,
});
