import { startProcess, type BenchProcess } from './children';
import { merge, runLoad, type LoadRun } from './load';

/**
 * `BENCH_MCP_CASE=metrics`: what the metrics cost the hot path, end to end. Two nodes of the
 * service (ROLE=all, embedded stores), one with METRICS=on and one with METRICS=off, take the
 * same `mem_set`/`mem_get` load in alternating rounds (the other node paused), so that both see
 * the same machine as far as a shared machine allows. Reports requests per second and the node's
 * CPU per request side by side, and their ratio (prints, writes nothing).
 */

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;

const bodies = (i: number) => [
  JSON.stringify({ tool: 'mem_set', input: { key: `bench:k${i}`, value: { n: i, s: 'hello world' } } }),
  JSON.stringify({ tool: 'mem_get', input: { key: `bench:k${i}` } }),
];

interface Node {
  label: string;
  process: BenchProcess;
  url: string;
  tokens: string[];
  runs: LoadRun[];
  cpuMicros: number;
}

export async function runMetricsCase(seconds: number, rounds: number, log: (line: string) => void) {
  const nodes: Node[] = [];
  try {
    for (const metrics of ['on', 'off']) {
      const child = startProcess(`metrics ${metrics}`, 'service.child', {
        ROLE: 'all',
        AMQP_URL: '',
        REDIS_URL: '',
        MONGODB_URL: '',
        METRICS: metrics,
        BENCH_AGENTS: String(CONNECTIONS),
        LOG_LEVEL: 'warn',
        NODE_ID: `bench-metrics-${metrics}-${process.pid}`,
      });
      const ready = await child.next<{ event: string; url: string; tokens: string[] }>('ready', 90_000);
      child.pause();
      nodes.push({
        label: `METRICS=${metrics}`,
        process: child,
        url: ready.url,
        tokens: ready.tokens,
        runs: [],
        cpuMicros: 0,
      });
    }
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always meets the other's leftovers.
      for (const node of round % 2 === 0 ? nodes : [...nodes].reverse()) {
        node.process.resume();
        let cpuStart = 0;
        const run = await runLoad({
          url: node.url,
          connections: CONNECTIONS,
          seconds,
          warmupSeconds: WARMUP_SECONDS,
          token: (i) => node.tokens[i % node.tokens.length],
          bodies,
          onMeasureStart: () => (cpuStart = node.process.cpuMicros() ?? 0),
        });
        node.cpuMicros += (node.process.cpuMicros() ?? 0) - cpuStart;
        node.process.pause();
        node.runs.push(run);
        log(`round ${round + 1} ${node.label}: ${Math.round(run.requests / run.seconds)} req/s`);
      }
    }
    const figures = nodes.map((n) => {
      const m = merge(n.runs);
      return { label: n.label, ...m, cpuUsPerRequest: n.cpuMicros / Math.max(1, m.requests) };
    });
    for (const f of figures) {
      log(
        `${f.label}: ${Math.round(f.requestsPerSec)} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.cpuUsPerRequest.toFixed(1)} µs CPU per request, ${f.non2xx} non-2xx`,
      );
    }
    const [on, off] = figures;
    log(
      `on/off: throughput ${(on.requestsPerSec / off.requestsPerSec).toFixed(3)}, CPU per request ${(on.cpuUsPerRequest / off.cpuUsPerRequest).toFixed(3)} (+${(on.cpuUsPerRequest - off.cpuUsPerRequest).toFixed(1)} µs)`,
    );
    return figures;
  } finally {
    for (const n of nodes) {
      n.process.resume();
      await n.process.stop(2_000);
    }
  }
}
