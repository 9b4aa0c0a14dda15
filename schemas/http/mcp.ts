import { z } from 'zod';
import { RouteRecordDocumentSchema } from '../documents/route-record';

/**
 * `POST /mcp` in the spec's dialect (any body without `jsonrpc`): `{tool, input | arguments,
 * server?}` → `{success: true, result}`. The MCP dialect (JSON-RPC 2.0) is handled in
 * `src/http/mcp/`.
 */
export const ToolCallBodySchema = z.object({
  tool: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .describe('Registry name (platform.mem_set), bare (mem_set) or mcp.<server>.<tool>'),
  input: z.record(z.string(), z.unknown()).optional(),
  /** Alias of `input` (used when `input` is absent). */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** Legacy hint: `{tool: 'create_issue', server: 'github'}` means `mcp.github.create_issue`. */
  server: z.string().trim().min(1).max(100).optional(),
});
export type ToolCallBody = z.infer<typeof ToolCallBodySchema>;

/** One registry entry of `GET /tools` (and of MCP `tools/list`). */
export const ToolEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
});
export type ToolEntry = z.infer<typeof ToolEntrySchema>;

/** `GET /api/ffp/routes?limit=` */
export const FfpRoutesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** A route record as shown: the stored record without its internal ids, `at` as an ISO string. */
export const RouteViewSchema = RouteRecordDocumentSchema.omit({
  _id: true,
  agentId: true,
  accountId: true,
  at: true,
}).extend({
  at: z.string(),
});
export type RouteView = z.infer<typeof RouteViewSchema>;

export const PrimitiveSummarySchema = z.object({
  primitive: z.string(),
  executions: z.number().int(),
  fallbackCount: z.number().int(),
});

export const FfpRoutesResponseSchema = z.object({
  routes: z.array(RouteViewSchema),
  primitives: z.array(PrimitiveSummarySchema),
});
export type FfpRoutesResponse = z.infer<typeof FfpRoutesResponseSchema>;

// ---- the MCP dialect of POST /mcp (JSON-RPC 2.0 envelope; src/http/mcp/json-rpc.ts) ----

const JsonRpcId = z.union([z.string(), z.number(), z.null()]);

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  /** Absent for a notification (answered 202 with no body). */
  id: JsonRpcId.optional(),
  method: z.string().describe('initialize, tools/list, tools/call, resources/list, prompts/list, ping…'),
  params: z.record(z.string(), z.unknown()).optional(),
});

export const JsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.looseObject({}) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId,
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  }),
]);

/** The `result` of `tools/list`. */
export const ToolsListResultSchema = z.object({
  tools: z.array(
    z.looseObject({ name: z.string(), inputSchema: z.looseObject({ type: z.literal('object') }) }),
  ),
  nextCursor: z.string().optional(),
});

/** The spec's dialect: `{tool, input}` → `{success: true, result}`. */
export const ToolCallResponseSchema = z.object({ success: z.literal(true), result: z.unknown() });
