import { z } from 'zod';
import { DependencyHealthSchema } from '../messages/ops';

export {
  DependencyHealthSchema,
  OpsHealthReplySchema,
  type DependencyHealth,
  type OpsHealthReply,
} from '../messages/ops';

/**
 * `GET /health`: `{status, version, timestamp, tools}` for everyone, `dependencies` too for an
 * ops admin. `status`: `ok` (200, all dependencies up), `degraded` (200, serving but a
 * dependency is not up), `unavailable` (503, the health actor could not be reached).
 */
export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  version: z.string(),
  timestamp: z.string(),
  tools: z.number().int().nonnegative(),
  /** Only for an ops-admin caller (`Authorization: Bearer <ADMIN_TOKEN>`, actors/ops/health-view.ts). */
  dependencies: z.record(z.string(), DependencyHealthSchema).optional(),
  /** Only with `unavailable`: what failed, so clients reading `error` on a non-2xx find it. */
  error: z.string().optional(),
  code: z.string().optional(),
});

export type HealthResponse = z.infer<typeof HealthResponseSchema>;
