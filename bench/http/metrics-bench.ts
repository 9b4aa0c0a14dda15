/**
 * Micro-benchmark of what the metrics cost each request (actors/operations/metrics.ts): the
 * `start` of the metrics layer (a timestamp, one `finish` listener) and, when the response ends,
 * the observation (route label, two nested map lookups, counter and histogram updates, the
 * minute windows), driven with stand-in requests and responses (no socket, no express). Also one
 * tool call observed (what the route recorder's observer adds to a call).
 *
 *   node -r ./test/support/ts-register.js bench/http/metrics-bench.ts
 *
 * Prints one JSON line: nanoseconds per request, the best of 7 rounds: a response that only emits
 * `finish` (baseline), the same with the metrics, and one tool call observed.
 */
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { ServiceMetrics } from '../../actors/operations/metrics';

const metrics = new ServiceMetrics({
  actors: () => ({ actors: 0, inFlight: 0, deferred: 0, pendingRequests: 0 }),
  executionsByStatus: async () => ({}),
  isRegisteredTool: (name) => name.startsWith('platform.'),
});
const req = { method: 'POST', route: { path: '/mcp' } } as unknown as Request;

function response(): Response {
  const res = new EventEmitter() as unknown as Response & { req: Request; statusCode: number };
  res.req = req;
  res.statusCode = 200;
  return res;
}

const N = 200_000;
function round(withMetrics: boolean): number {
  const responses = Array.from({ length: N }, response);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const res = responses[i];
    if (withMetrics) metrics.start(res);
    res.emit('finish');
  }
  return Number(process.hrtime.bigint() - t0) / N;
}
function toolRound(): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) metrics.observeTool('platform.mem_get', 'ok', 0.4);
  return Number(process.hrtime.bigint() - t0) / N;
}

const best = { baselineNs: Infinity, withMetricsNs: Infinity, toolCallNs: Infinity };
for (let r = 0; r < 7; r++) {
  best.baselineNs = Math.min(best.baselineNs, round(false));
  best.withMetricsNs = Math.min(best.withMetricsNs, round(true));
  best.toolCallNs = Math.min(best.toolCallNs, toolRound());
}
const rounded = Object.fromEntries(Object.entries(best).map(([k, v]) => [k, Math.round(v)]));
console.log(
  JSON.stringify({ ...rounded, requestOverheadNs: Math.round(best.withMetricsNs - best.baselineNs) }),
);
