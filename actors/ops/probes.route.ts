import { isAppError } from '../../schemas/errors';
import { OpsHealthReplySchema, type OpsHealthReply } from '../../schemas/messages/ops';
import type { RouteModule } from '../../src/http/app.types';
import { HEALTH_ACTOR } from './health.actor';

/**
 * Deadline of the readiness question. The health actor bounds each dependency check at 2 s and
 * runs them at once; one more second covers the trip through the transport. Probe timeouts of
 * orchestrators must be at least this (Kubernetes' default is 1 s: set `timeoutSeconds: 4`).
 */
export const READY_TIMEOUT_MS = 3000;

type DependencyName = keyof OpsHealthReply['dependencies'];
type DependencyStates = Record<DependencyName, string>;

/** 503 body of `/readyz`: an error body (`error`, `code`) that also names each dependency's state. */
function notReady(error: string, dependencies: DependencyStates) {
  return { status: 'not_ready' as const, error, code: 'UNAVAILABLE' as const, dependencies };
}

/**
 * The probes of orchestrators and load balancers, beside `GET /health` (no auth, no body to send):
 *
 * - `GET /livez`: the process runs and its event loop answers. Checks nothing else, so a database
 *   outage never makes an orchestrator restart every node; always 200 `{status: 'alive'}`.
 * - `GET /readyz`: this node can serve: it reaches the actors through the transport (the question
 *   goes to the `ops:health` actor, as /health's does) and every dependency they report is up.
 *   200 `{status: 'ready'}`; otherwise 503 `{status: 'not_ready', error, code: 'UNAVAILABLE',
 *   dependencies: {transport, documents, cache}}` with `Retry-After: 1`. Only the states are shown
 *   (`up`, `down`, ...): the details (endpoints, latencies) stay in /health.
 */
export const probesRoute: RouteModule = (router, deps) => {
  const alive = Object.freeze({ status: 'alive' });
  const ready = Object.freeze({ status: 'ready' });
  const question = Object.freeze({});
  const askOptions = Object.freeze({ timeoutMs: Math.min(READY_TIMEOUT_MS, deps.config.REQUEST_TIMEOUT_MS) });

  router.get('/livez', (_req, res) => {
    res.json(alive);
  });

  router.get('/readyz', async (_req, res) => {
    let reply: OpsHealthReply;
    try {
      reply = OpsHealthReplySchema.parse(
        await deps.system.ask(HEALTH_ACTOR, 'ops.health', question, askOptions),
      );
    } catch (err) {
      const code = isAppError(err) ? err.code : 'INTERNAL_ERROR';
      res.locals.log.warn({ err }, 'readiness: ops:health did not answer');
      res
        .status(503)
        .set('Retry-After', '1')
        .json(
          notReady(`Not ready: the actors did not answer (${code})`, {
            transport: 'down',
            documents: 'unknown',
            cache: 'unknown',
          }),
        );
      return;
    }
    const entries = Object.entries(reply.dependencies) as Array<[DependencyName, { state: string }]>;
    const states = Object.fromEntries(entries.map(([name, dep]) => [name, dep.state])) as DependencyStates;
    const notUp = entries
      .filter(([, dep]) => dep.state !== 'up')
      .map(([name, dep]) => `${name} ${dep.state}`);
    if (notUp.length === 0) {
      res.json(ready);
      return;
    }
    res
      .status(503)
      .set('Retry-After', '1')
      .json(notReady(`Not ready: ${notUp.join(', ')}`, states));
  });
};
