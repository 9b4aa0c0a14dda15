import { z } from 'zod';
import { DependencyHealthSchema } from '../messages/ops';

export {
  DependencyHealthSchema,
  OpsHealthReplySchema,
  type DependencyHealth,
  type OpsHealthReply,
} from '../messages/ops';

/**
 * `GET /health`. `status`: `ok` (200, all dependencies up), `degraded` (200, serving but a
 * dependency is not up), `unavailable` (503, the health actor could not be reached).
 */
export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  version: z.string(),
  timestamp: z.string(),
  tools: z.number().int().nonnegative(),
  dependencies: z.record(z.string(), DependencyHealthSchema),
  /** Only with `unavailable`: what failed, so clients reading `error` on a non-2xx find it. */
  error: z.string().optional(),
  code: z.string().optional(),
});

export type HealthResponse = z.infer<typeof HealthResponseSchema>;
