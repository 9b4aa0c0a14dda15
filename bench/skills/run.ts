/**
 * Skill store benchmark (`npm run bench:skills`): `GET /api/skills` at 1,000 skills, the server's
 * CPU time per request (the whole service process, the embedded document store included) for the
 * queries a store page makes. The service runs in a child process; the load comes from this one
 * with keep-alive connections. About half a minute. Results: bench/results/skills.json and .md.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { killAllChildren, startProcess } from '../tools/children';

const TARGET_CPU_US = 5000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);

const CASES: Array<{ name: string; query: string }> = [
  { name: 'first page (popular, 20)', query: '' },
  { name: 'category, popular', query: '?category=Security' },
  { name: 'search "json"', query: '?search=json' },
  { name: 'sort name, page 10, limit 50', query: '?sort=name&page=10&limit=50' },
  { name: 'sort rating', query: '?sort=rating' },
  { name: 'sort recent, author', query: '?sort=recent&author=platform' },
];

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'tsconfig.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function get(url: string): Promise<{ status: number; ms: number; total?: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            pagination?: { total: number };
          };
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            total: body.pagination?.total,
          });
        });
      })
      .on('error', reject);
  });
}

/** `n` requests with `CONCURRENCY` in flight. */
async function load(url: string, n: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next += 1;
        const r = await get(url);
        if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
        times.push(r.ms);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write('bench:skills: watchdog, stopping\n');
    killAllChildren();
    process.exit(2);
  }, 180_000);
  watchdog.unref();
  const loadBefore = os.loadavg();
  // startProcess resolves scripts next to bench/tools/children.ts.
  const service = startProcess(
    'service',
    '../skills/service.child',
    { BENCH_SKILLS: '1000' },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  try {
    const ready = await service.next<{ event: string; url: string; skills: number }>('ready', 120_000);
    const base = `${ready.url}/api/skills`;
    await load(`${base}?search=warm`, 200);
    const results = [];
    for (const c of CASES) {
      const url = `${base}${c.query}`;
      const { total } = await get(url);
      await load(url, 100);
      const cpu0 = service.cpuMicros()!;
      const started = performance.now();
      const times = await load(url, REQUESTS);
      const seconds = (performance.now() - started) / 1000;
      const cpu = service.cpuMicros()! - cpu0;
      results.push({
        case: c.name,
        query: `GET /api/skills${c.query}`,
        matches: total,
        requests: REQUESTS,
        requestsPerSec: Math.round(REQUESTS / seconds),
        serverCpuUsPerRequest: Math.round(cpu / REQUESTS),
        p50Ms: round(quantile(times, 0.5)),
        p99Ms: round(quantile(times, 0.99)),
        target: cpu / REQUESTS <= TARGET_CPU_US,
      });
    }
    const report = {
      date: new Date().toISOString(),
      skills: ready.skills,
      concurrency: CONCURRENCY,
      targetCpuUsPerRequest: TARGET_CPU_US,
      loadAverageBefore: loadBefore.map((l) => round(l)),
      loadAverageAfter: os.loadavg().map((l) => round(l)),
      cpus: os.cpus().length,
      results,
    };
    const dir = path.join(repoRoot(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'skills.json'), `${JSON.stringify(report, null, 2)}\n`);
    const md = [
      '# bench:skills',
      '',
      `${report.date}: \`GET /api/skills\` at ${report.skills} skills, ${CONCURRENCY} keep-alive connections, ${REQUESTS} measured requests per case (after 100 of warm-up); server CPU = the whole service process (/proc), the embedded document store included. Load average ${report.loadAverageBefore.join(' / ')} before, ${report.loadAverageAfter.join(' / ')} after, ${report.cpus} cores (shared machine).`,
      '',
      '| case | matches | requests/s | server CPU µs/request | p50 ms | p99 ms | ≤ 5 ms |',
      '|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.case} | ${r.matches} | ${r.requestsPerSec} | ${r.serverCpuUsPerRequest} | ${r.p50Ms} | ${r.p99Ms} | ${r.target ? 'yes' : 'NO'} |`,
      ),
      '',
    ].join('\n');
    writeFileSync(path.join(dir, 'skills.md'), md);
    process.stdout.write(`${md}\n`);
  } finally {
    await service.stop();
    agent.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  killAllChildren();
  process.exit(1);
});
