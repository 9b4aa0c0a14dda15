import { z } from 'zod';
import { FfpStateSchema } from '../../schemas/http/ffp';
import { HealthResponseSchema } from '../../schemas/http/health';
import { defineContracts } from '../../src/http/openapi/contract';

/** health.route.ts, probes.route.ts, ffp.route.ts. */
export const opsContracts = defineContracts('Health', [
  {
    method: 'get',
    path: '/health',
    summary: 'Service health (`dependencies` for an ops admin); 503 when the actors cannot be reached',
    auth: 'optional',
    responses: {
      200: HealthResponseSchema,
      503: { description: 'Unavailable', schema: HealthResponseSchema },
    },
  },
  {
    method: 'get',
    path: '/livez',
    summary: 'Liveness probe',
    auth: 'none',
    responses: { 200: z.object({ status: z.literal('alive') }) },
  },
  {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness probe: 503 while a dependency is not up',
    auth: 'none',
    responses: { 200: z.object({ status: z.literal('ready') }) },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/ffp/temp',
    summary: 'The FFP compatibility feature: always disabled, tools run directly',
    auth: 'sb',
    responses: { 200: FfpStateSchema },
  },
  {
    method: 'patch',
    path: '/api/ffp/temp',
    summary: 'Always 405: the FFP feature cannot be changed (any method but GET)',
    auth: 'none',
    responses: {
      405: {
        description: 'Refused, whatever the body',
        schema: z.object({ error: z.string(), enabled: z.literal(false), status: z.literal('disabled') }),
        headers: { Allow: 'GET' },
      },
    },
  },
]);
