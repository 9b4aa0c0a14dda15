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
