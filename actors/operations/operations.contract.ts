import { z } from 'zod';
import { CrewFailoverBodySchema } from '../../schemas/http/operations';
import { defineContracts } from '../../src/http/openapi/contract';

/** An answer whose full shape is in docs/operations.md; the named fields are always there. */
const described = (shape: z.ZodRawShape = {}) => z.looseObject(shape);

const count = z.number().int().nonnegative();
const member = z.object({ nodeId: z.string(), heartbeatAgeMs: count }).nullable();
/** One feature's crew in `coverage.items`. */
const crewItem = described({
  featureSlug: z.string(),
  kind: z.enum(['actor', 'runtime', 'duty', 'skill', 'app']),
  coverage: z.enum(['fullyCovered', 'degraded', 'uncovered']),
  active: member,
  standby: member,
  /** Skill and app features: the runtime functions they use (a node serving them offers all). */
  uses: z.array(z.string()).optional(),
});

/** crew.route.ts and metrics.route.ts: the ops crew, its duties and metrics. */
export const operationsContracts = defineContracts('Operations', [
  {
    method: 'get',
    path: '/api/ops/crew',
    summary: 'Crew coverage of the duties (details for ops admins)',
    auth: 'optional',
    responses: {
      200: described({
        summary: described({
          features: count,
          fullyCovered: count,
          degraded: count,
          uncovered: count,
          nodes: count,
          /** Features per kind: installed catalog skills (`skill:<slug>`) and apps (`app:<slug>`) too. */
          byKind: z.object({ actor: count, runtime: count, duty: count, skill: count, app: count }),
        }),
        settings: described(),
        coverage: described({
          status: z.enum(['fullyCovered', 'degraded', 'uncovered']),
          /** Ops admins only: each feature's crew; skills and apps list the runtime functions they use. */
          items: z.array(crewItem).optional(),
          nodes: z.array(described()).optional(),
        }),
        requiresAuthForDetails: z.boolean(),
      }),
    },
  },
  {
    method: 'post',
    path: '/api/ops/crew/bootstrap',
    summary: 'Seed what a fresh deployment needs (ops admin)',
    auth: 'admin',
    responses: { 200: described({ success: z.literal(true), result: z.unknown() }) },
  },
  {
    method: 'post',
    path: '/api/ops/crew/failover',
    summary: 'Move a duty to its standby node (ops admin)',
    auth: 'admin',
    body: CrewFailoverBodySchema,
    responses: { 200: described() },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/ops/crew/cron',
    summary: 'Run the periodic duties now (a scheduler calls it)',
    auth: 'cron',
    responses: { 200: described({ success: z.boolean(), result: described() }) },
  },
  {
    method: 'get',
    path: '/api/ops/metrics',
    summary: 'Throughput, error rates and executions by status (percentiles per route for ops admins)',
    auth: 'optional',
    responses: {
      200: described({
        summary: described(),
        settings: described(),
        metrics: described().nullable(),
        requiresAuthForDetails: z.boolean(),
      }),
    },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of this node (`METRICS=off` removes the route)',
    auth: 'metrics',
    responses: {
      200: { description: 'Prometheus text format', contentType: 'text/plain', schema: z.string() },
    },
  },
]);
