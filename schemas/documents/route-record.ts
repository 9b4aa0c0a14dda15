import { z } from 'zod';
import { InvokedByTypeSchema } from '../messages/tools';

/** Where the router sent a call. */
export const RouteSourceSchema = z.enum(['platform', 'external_mcp', 'skill']);
export type RouteSource = z.infer<typeof RouteSourceSchema>;

/** The public references of the apps, workflows and skills a call was made for. */
const RelatedSchema = z.object({
  apps: z.array(z.string()),
  workflows: z.array(z.string()),
  skills: z.array(z.string()),
});

/**
 * One tool call as routed. `agentId` and `accountId` are internal (filters): never returned;
 * clients see `agentRef`. The recorder stores records in pages (`RoutePageDocumentSchema`); the
 * collection `route_records`, one document per call (TTL index on `at`, 7 days), is what versions
 * before the pages wrote: still read, no longer written.
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
  related: RelatedSchema,
  agentRef: z.string(),
  agentId: z.string(),
  accountId: z.string().optional(),
  /** `cancelled`: the caller gave up (MCP `notifications/cancelled`, a client that disconnected, `tasks/cancel`). */
  status: z.enum(['ok', 'error', 'cancelled']),
  /** Error code when `status` is `error` or `cancelled` (`PERMISSION_DENIED`, `VALIDATION_ERROR`, …). */
  errorCode: z.string().optional(),
  durationMs: z.number().nonnegative(),
  at: z.date(),
});
export type RouteRecordDocument = z.infer<typeof RouteRecordDocumentSchema>;

/** The columns holding indexes into `strings`. */
const REF_COLUMNS = [
  'tool',
  'primitive',
  'invokedByType',
  'source',
  'agentId',
  'agentRef',
  'accountId',
  'status',
  'errorCode',
] as const;

/** Index of a string in a page's `strings`. */
const ref = z.number().int().nonnegative();
/** The same, or -1 for none (no `errorCode`, no account). */
const refOrNone = z.number().int().min(-1);

/**
 * The route records of one flush of one process (collection `route_pages`): up to a batch of
 * records stored as columns, row `i` of every column being record `i` in the order recorded. One
 * document per batch instead of one per call: the writer serialises and the document server parses
 * a few arrays of small integers instead of hundreds of small documents (docs/tool-router.md,
 * "Route records"). Strings (tools, agents, statuses…) are stored once per page, in `strings`,
 * and the columns hold their indexes. `at` holds milliseconds after `from`. `agentIds` and
 * `accountIds` (distinct, indexed) let a listing find the pages of one owner. A TTL index on
 * `until` (the newest record) keeps every record at least 7 days.
 */
export const RoutePageDocumentSchema = z
  .object({
    _id: z.string(),
    from: z.date(),
    until: z.date(),
    agentIds: z.array(z.string()),
    accountIds: z.array(z.string()),
    strings: z.array(z.string()),
    rows: z.object({
      tool: z.array(ref),
      primitive: z.array(ref),
      invokedByType: z.array(ref),
      source: z.array(ref),
      agentId: z.array(ref),
      agentRef: z.array(ref),
      accountId: z.array(refOrNone),
      status: z.array(ref),
      errorCode: z.array(refOrNone),
      fallbackUsed: z.array(z.boolean()),
      durationMs: z.array(z.number().nonnegative()),
      at: z.array(z.number().int().nonnegative()),
      /** Present when a record of the page names apps, workflows or skills (`null`: none). */
      related: z.array(RelatedSchema.nullable()).optional(),
    }),
  })
  .superRefine((page, ctx) => {
    const n = page.rows.tool.length;
    for (const [name, column] of Object.entries(page.rows)) {
      if (column !== undefined && column.length !== n)
        ctx.addIssue({
          code: 'custom',
          path: ['rows', name],
          message: `has ${column.length} rows, not ${n}`,
        });
    }
    for (const name of REF_COLUMNS) {
      if (page.rows[name].some((i) => i >= page.strings.length))
        ctx.addIssue({ code: 'custom', path: ['rows', name], message: 'refers past strings' });
    }
  });
export type RoutePageDocument = z.infer<typeof RoutePageDocumentSchema>;

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
