import { isAppError } from '../../schemas/errors';
import type { HealthResponse } from '../../schemas/http/health';
import { OpsHealthReplySchema } from '../../schemas/messages/ops';
import type { RouteModule, ResolvedAppDeps } from '../../src/http/app.types';
import { SERVICE_VERSION } from '../../src/version';
import type { Secrets } from '../../src/config/secrets';
import { HEALTH_ACTOR } from './health.actor';
import { healthView, isOpsAdmin } from './health-view';

/** A health check must answer fast even when the actors are stuck: it gets its own short deadline. */
export const HEALTH_TIMEOUT_MS = 5000;

const toolsValue = (count: number) => (Number.isInteger(count) && count >= 0 ? count : 0);

/** The registry's size is usually at hand: awaiting it only when it is a promise spares a hop. */
function toolsOf(deps: ResolvedAppDeps<HealthRouteServices>): number | Promise<number> {
  const count = deps.toolCount();
  return typeof count === 'number' ? toolsValue(count) : count.then(toolsValue);
}

/**
 * `GET /health` (no auth). The dependency states come from the `ops:health` actor, so the answer
 * also proves that this node reaches the actors through the transport. Their details only go to
 * an ops admin (`Bearer <ADMIN_TOKEN>`, actors/ops/health-view.ts); everyone else gets
 * `{status, version, timestamp, tools}`.
 *
 * - 200 `status: 'ok'`: every dependency is up.
 * - 200 `status: 'degraded'`: the service answers but a dependency is not up (still 200, so one
 *   slow cache does not make a load balancer drop every node; read `status` and `dependencies`).
 * - 503 `status: 'unavailable'` with `Retry-After: 1`: the health actor did not answer in time.
 */
/** What `/health` reads from the process's services: the ADMIN_TOKEN in force. */
interface HealthRouteServices {
  readonly secrets: Pick<Secrets, 'adminToken'>;
}

export const healthRoute: RouteModule<HealthRouteServices> = (router, deps) => {
  // The same question every time: built once, not per request.
  const question = Object.freeze({});
  const askOptions = Object.freeze({
    timeoutMs: Math.min(HEALTH_TIMEOUT_MS, deps.config.REQUEST_TIMEOUT_MS),
  });
  router.get('/health', async (req, res) => {
    const opsAdmin = isOpsAdmin(
      req.headers.authorization,
      deps.services?.secrets.adminToken ?? deps.config.ADMIN_TOKEN,
    );
    const counted = toolsOf(deps);
    const tools = typeof counted === 'number' ? counted : await counted;
    let body: HealthResponse;
    try {
      const reply = OpsHealthReplySchema.parse(
        await deps.system.ask(HEALTH_ACTOR, 'ops.health', question, askOptions),
      );
      body = {
        status: reply.status,
        version: SERVICE_VERSION,
        timestamp: new Date().toISOString(),
        tools,
        dependencies: reply.dependencies,
      };
    } catch (err) {
      res.locals.log.warn({ err }, 'health check: ops:health did not answer');
      const code = isAppError(err) ? err.code : 'INTERNAL_ERROR';
      const unknown = { state: 'unknown' as const };
      body = {
        status: 'unavailable',
        version: SERVICE_VERSION,
        timestamp: new Date().toISOString(),
        tools,
        dependencies: {
          transport: { state: 'down', detail: `ops:health did not answer (${code})` },
          documents: unknown,
          cache: unknown,
        },
        error: 'Health check failed: the ops:health actor did not answer',
        code: 'UNAVAILABLE',
      };
      res.status(503).set('Retry-After', '1');
    }
    res.json(healthView(body, opsAdmin));
  });
};
