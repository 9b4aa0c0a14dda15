import autocannon from 'autocannon';

/** One closed-loop load of `POST <url>/mcp` with autocannon. */
export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  /** Bearer token of connection `i`. */
  token(i: number): string;
  /** The request bodies connection `i` sends in turn, forever. */
  bodies(i: number): string[];
  /** Headers of a request beyond content type and bearer (MCP 2026-07-28's `Mcp-Method`, say). */
  headers?(body: string): Record<string, string>;
  /**
   * Seconds of load before `seconds`, on the same connections, not measured: the first
   * requests of 50 fresh connections arrive at once and meet cold caches, and that ramp is not
   * the steady state a round measures.
   */
  warmupSeconds?: number;
  /** Called when the measured part starts (after the warm-up): CPU snapshots go here. */
  onMeasureStart?: () => void;
}

/** What one load run measured. Latencies in ms, as autocannon reports each response. */
export interface LoadRun {
  requests: number;
  seconds: number;
  latencies: Float64Array;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadRun> {
  let nextClient = 0;
  const latencies: number[] = [];
  const warmupMs = (spec.warmupSeconds ?? 0) * 1000;
  // Responses are counted from the end of the warm-up (a timer, so the boundary does not depend on
  // a response arriving).
  let measuring = warmupMs === 0;
  let non2xx = 0;
  let errors = 0;
  const instance = autocannon(
    {
      url: `${spec.url}/mcp`,
      connections: spec.connections,
      duration: spec.seconds + warmupMs / 1000,
      method: 'POST',
      timeout: 10,
      setupClient: (client) => {
        const i = nextClient++;
        // Headers with each request: a client's request list would otherwise keep only the first's.
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${spec.token(i)}` };
        client.setRequests(
          spec.bodies(i).map((body) => ({
            method: 'POST',
            path: '/mcp',
            headers: spec.headers ? { ...headers, ...spec.headers(body) } : headers,
            body,
          })),
        );
      },
    },
    () => undefined,
  );
  if (measuring) spec.onMeasureStart?.();
  const warmed =
    warmupMs > 0
      ? setTimeout(() => {
          measuring = true;
          spec.onMeasureStart?.();
        }, warmupMs)
      : undefined;
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (!measuring) return;
    latencies.push(responseTime);
    if (status < 200 || status > 299) non2xx += 1;
  });
  // Connection errors and timeouts alike.
  instance.on('reqError', () => {
    if (measuring) errors += 1;
  });
  await new Promise<autocannon.Result>((resolve, reject) => {
    instance.once('done', resolve);
    instance.once('error', reject);
  });
  clearTimeout(warmed);
  // Counted from the events, from the end of the warm-up (autocannon's totals include it).
  return {
    requests: latencies.length,
    seconds: spec.seconds,
    latencies: Float64Array.from(latencies),
    non2xx,
    errors,
  };
}

/** Several runs of one case (rounds), merged. */
export interface CaseFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export function merge(runs: readonly LoadRun[]): CaseFigures {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const all = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
  let offset = 0;
  for (const r of runs) {
    all.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  all.sort();
  const at = (q: number) =>
    all.length === 0 ? NaN : all[Math.min(all.length - 1, Math.floor(q * all.length))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    requestsPerSec: Math.round(requests / Math.max(seconds, 1e-9)),
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    requests,
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}
