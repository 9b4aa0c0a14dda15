import { isAppError } from '../../schemas/errors';
import {
  OpsHealthReplySchema,
  OpsHealthRequestSchema,
  type DependencyHealth,
  type OpsHealthReply,
} from '../../schemas/messages/ops';
import { defineActor } from '../../src/kernel';

/** Checks one dependency. May throw or hang: the actor bounds it and reports `down`. */
export type HealthProbe = (signal: AbortSignal) => DependencyHealth | Promise<DependencyHealth>;

/** What the health actor checks, wired by `main` from the services of this process. */
export interface HealthActorOptions {
  probes: {
    /** Usually `() => system.status().transport`. */
    transport: HealthProbe;
    documents: HealthProbe;
    cache: HealthProbe;
  };
  /** Time one probe may take before it counts as down, in ms. Default 2000. */
  probeTimeoutMs?: number;
  /**
   * How long one check's answer is reused, in ms. Default 1000. Load balancers and dashboards poll
   * /health often; without reuse every poll paid for three probes and their timers.
   */
  reuseMs?: number;
}

const DEFAULT_PROBE_TIMEOUT_MS = 2000;

/** Runs one probe; any failure becomes `down` with a detail safe to show (no raw error text). */
async function runProbe(
  probe: HealthProbe,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<DependencyHealth> {
  const signal = AbortSignal.any([parent, AbortSignal.timeout(timeoutMs)]);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<DependencyHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ state: 'down', detail: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(() => probe(signal)), timedOut]);
  } catch (err) {
    return { state: 'down', detail: isAppError(err) ? err.message : 'check failed' };
  } finally {
    clearTimeout(timer);
  }
}

/** Checks every dependency at once; `ok` only when all are up. */
export async function checkHealth(options: HealthActorOptions, signal: AbortSignal): Promise<OpsHealthReply> {
  const timeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const { transport, documents, cache } = options.probes;
  const [t, d, c] = await Promise.all([
    runProbe(transport, timeoutMs, signal),
    runProbe(documents, timeoutMs, signal),
    runProbe(cache, timeoutMs, signal),
  ]);
  const dependencies = { transport: t, documents: d, cache: c };
  const allUp = Object.values(dependencies).every((dep) => dep.state === 'up');
  return OpsHealthReplySchema.parse({ status: allUp ? 'ok' : 'degraded', dependencies });
}

/** The address of this node's health actor (`GET /health`, `/readyz`). */
export const HEALTH_ACTOR = 'ops:health';

/**
 * The `ops:health` actor: answers `ops.health` with the state of the dependencies as this node sees
 * them. It keeps no actor state; the checks run outside its turn (`defer`), so concurrent health
 * checks do not queue behind one slow probe. An answer still fresh (`reuseMs`) is replied within the
 * turn.
 */
export function healthActor(options: HealthActorOptions) {
  const reuseMs = options.reuseMs ?? 1000;
  let last: { at: number; reply: OpsHealthReply } | undefined;
  let running: Promise<OpsHealthReply> | undefined;
  const fresh = (): OpsHealthReply | undefined =>
    last && Date.now() - last.at < reuseMs ? last.reply : undefined;
  // Concurrent requests share the check in flight; a finished check is reused for `reuseMs`.
  const check = (signal: AbortSignal): Promise<OpsHealthReply> => {
    const reusable = fresh();
    if (reusable) return Promise.resolve(reusable);
    running ??= checkHealth(options, signal).then(
      (reply) => {
        last = { at: Date.now(), reply };
        running = undefined;
        return reply;
      },
      (err: unknown) => {
        running = undefined;
        throw err;
      },
    );
    return running;
  };
  return defineActor({
    kind: 'ops',
    messages: { 'ops.health': OpsHealthRequestSchema },
    handlers: {
      // A reusable answer is the turn's own reply: deferring it would cost an AbortController and
      // a deadline timer per request for nothing (every request still reaches the actor).
      'ops.health': (ctx) => fresh() ?? ctx.defer((signal) => check(signal)),
    },
  });
}
