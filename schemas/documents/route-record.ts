import { z } from 'zod';
import { InvokedByTypeSchema } from '../messages/tools';

/** Where the router sent a call. */
export const RouteSourceSchema = z.enum(['platform', 'external_mcp', 'skill']);
export type RouteSource = z.infer<typeof RouteSourceSchema>;

/**
 * One tool call as routed (collection `route_records`, kept 7 days by a TTL index on `at`).
 * `agentId` and `accountId` are internal (filters): never returned; clients see `agentRef`.
 */
export const RouteRecordDocumentSchema = z.object({
  _id: z.string(),
  /** Registry name: `platform.mem_set`, `mcp.<server>.<tool>`, `platform.skill.<slug>.<cap>`. */
  tool: z.string(),
  /** The primitive for built-in tools (`mem_set`); the tool name otherwise. */
  primitive: z.string(),
  /** Always false in this version: the FFP fallback is disabled (runtime execution bypasses it). */
  fallbackUsed: z.boolean(),
  invokedByType: InvokedByTypeSchema,
  routeDecision: z.object({ source: RouteSourceSchema }),
  related: z.object({
    apps: z.array(z.string()),
    workflows: z.array(z.string()),
    skills: z.array(z.string()),
  }),
  agentRef: z.string(),
  agentId: z.string(),
  accountId: z.string().optional(),
  status: z.enum(['ok', 'error']),
  /** Error code when `status` is `error` (`PERMISSION_DENIED`, `VALIDATION_ERROR`, …). */
  errorCode: z.string().optional(),
  durationMs: z.number().nonnegative(),
  at: z.date(),
});
export type RouteRecordDocument = z.infer<typeof RouteRecordDocumentSchema>;

/**
 * Per-owner counters of executions per primitive (collection `route_stats`): the summary of
 * `GET /api/ffp/routes` without scanning the records. `ownerKey` is `agent:<id>` or `account:<id>`.
 */
export const RouteStatDocumentSchema = z.object({
  _id: z.string(),
  ownerKey: z.string(),
  primitive: z.string(),
  executions: z.number().int().nonnegative(),
  fallbackCount: z.number().int().nonnegative(),
  updatedAt: z.date(),
});
export type RouteStatDocument = z.infer<typeof RouteStatDocumentSchema>;
