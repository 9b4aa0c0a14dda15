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
}

/** What one load run measured. Latencies in ms, as autocannon reports each response. */
export interface LoadRun {
  requests: number;
  seconds: number;
  latencies: Float64Array;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadRun> {
  let nextClient = 0;
  const latencies: number[] = [];
  const instance = autocannon(
    {
      url: `${spec.url}/mcp`,
      connections: spec.connections,
      duration: spec.seconds,
      method: 'POST',
      timeout: 10,
      setupClient: (client) => {
        const i = nextClient++;
        // Headers with each request: a client's request list would otherwise keep only the first's.
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${spec.token(i)}` };
        client.setRequests(spec.bodies(i).map((body) => ({ method: 'POST', path: '/mcp', headers, body })));
      },
    },
    () => undefined,
  );
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance.once('done', resolve);
    instance.once('error', reject);
  });
  return {
    requests: result.requests.total,
    seconds: spec.seconds,
    latencies: Float64Array.from(latencies),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
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
    errors: runs.reduce((n, r) => n + r.errors + r.timeouts, 0),
  };
}
