import { createHash, timingSafeEqual } from 'node:crypto';
import type { HealthResponse } from '../../schemas/http/health';

/**
 * Who sees what of `GET /health`. Everyone (load balancers, uptime probes, anonymous callers)
 * gets `{status, version, timestamp, tools}`: enough to route traffic and page someone. The
 * dependency details (the document store's URL or host, the cache's key count, broker states)
 * describe the deployment and are for operators only: a caller presenting the ops-admin token
 * (`ADMIN_TOKEN`, `Authorization: Bearer <token>`) gets them too. Any other credential, right or
 * wrong for other routes, gets the public view: a health check never answers 401.
 */

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Whether the `Authorization` header carries the ops-admin token (compared in constant time). */
export function isOpsAdmin(authorization: string | undefined, adminToken: string | undefined): boolean {
  if (!adminToken || !authorization) return false;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), digest(adminToken));
}

/** The answer for this caller: the dependency details only for an ops admin. */
export function healthView(full: HealthResponse, opsAdmin: boolean): HealthResponse {
  if (opsAdmin) return full;
  const { dependencies: _dependencies, ...visible } = full;
  return visible;
}
