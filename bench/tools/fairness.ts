import { killAllChildren, startProcess, type BenchProcess } from './children';

/**
 * The fairness case of `bench:mcp` (docs/sandbox.md, "Waiting calls"): the latency of tenant T's
 * trivial `proc_execute` (`1+1`, one call at a time) while tenant S keeps LOOPS long loops
 * (`while (true) {}`) in flight, against the same with S idle. S and T are two self-registered
 * agents, so two accounts as far as the sandbox is concerned, on one service node (`ROLE=all`,
 * SANDBOX_THREADS=2). Target: loaded p99 ≤ 2 × idle p99 + 100 ms.
 *
 * The node runs nothing else: S's loops outlive the case (they drain for tens of seconds), so the
 * idle phase comes first and the node is stopped after the loaded one.
 *
 * Alone: `BENCH_MCP_CASE=fairness npm run bench:mcp` runs only this case (embedded stores, about
 * 20 s) and prints its figures and target line without writing bench/results.
 */

/** Long loops tenant S keeps in flight (one runs on its share of the threads, the rest wait). */
export const FAIRNESS_LOOPS = 20;
/** Each of S's loops runs until its timeout: long next to T's calls, short enough to cycle. */
const LOOP_TIMEOUT_MS = 5000;
/** S's loops are sent this long before T's calls are measured, so that they fill the line. */
const RAMP_MS = 1000;
/** T's calls before the idle phase's measurement (not measured; the loaded phase follows it). */
const WARMUP_CALLS = 20;
export const FAIRNESS_SANDBOX_THREADS = 2;

export interface PhaseFigures {
  /** T's calls measured. */
  calls: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** T's calls that did not answer 200 with outcome ok. */
  errors: number;
}

export interface FairnessFigures {
  loops: number;
  loopTimeoutMs: number;
  sandboxThreads: number;
  secondsPerPhase: number;
  idle: PhaseFigures;
  loaded: PhaseFigures;
  /** S's calls answered during the loaded phase (timeouts of its loops, or refusals). */
  tenantSAnswers: Record<string, number>;
  /** 2 × idle p99 + 100 ms. */
  targetP99Ms: number;
  pass: boolean;
}

const body = (code: string, timeout?: number) =>
  JSON.stringify({
    tool: 'proc_execute',
    input: { language: 'javascript', code, ...(timeout ? { timeout } : {}) },
  });
const TRIVIAL = body('1+1');
const LOOP = body('while (true) {}', LOOP_TIMEOUT_MS);

async function post(url: string, token: string, payload: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: payload,
  });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (x: number) => Math.round(x * 10) / 10;

/**
 * T's trivial calls, one at a time, for `seconds` (the call in flight at the end is awaited: under
 * a line that is not fair, one call may wait until its deadline, about 40 s).
 */
async function measureT(url: string, token: string, seconds: number, warmUp: boolean): Promise<PhaseFigures> {
  for (let i = 0; warmUp && i < WARMUP_CALLS; i++) await post(url, token, TRIVIAL);
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    const r = await post(url, token, TRIVIAL);
    latencies.push(performance.now() - t0);
    const outcome = (r.json as { result?: { outcome?: string } } | undefined)?.result?.outcome;
    if (r.status !== 200 || outcome !== 'ok') errors += 1;
  }
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies[latencies.length - 1] ?? NaN),
    errors,
  };
}

/**
 * Runs the case against a node with two agents' tokens (`s` for the tenant that loads it, `t` for
 * the one measured). Leaves S's loops behind: stop the node afterwards.
 */
export async function measureFairness(
  url: string,
  s: string,
  t: string,
  seconds: number,
  log: (line: string) => void,
): Promise<FairnessFigures> {
  log(`fairness: T's 1+1 alone, ${seconds} s`);
  const idle = await measureT(url, t, seconds, true);
  log(`  idle: ${idle.calls} calls, p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms, max ${idle.maxMs} ms`);

  // S keeps FAIRNESS_LOOPS calls in flight: each of its senders sends the next loop when one ends.
  let loading = true;
  const tenantSAnswers: Record<string, number> = {};
  const sender = async () => {
    while (loading) {
      const r = await post(url, s, LOOP).catch(() => ({ status: 0, json: undefined }));
      const outcome = (r.json as { result?: { outcome?: string } } | undefined)?.result?.outcome;
      const key = r.status === 200 ? `200 ${outcome}` : String(r.status);
      if (loading) tenantSAnswers[key] = (tenantSAnswers[key] ?? 0) + 1;
    }
  };
  const senders = Array.from({ length: FAIRNESS_LOOPS }, sender);
  await new Promise((r) => setTimeout(r, RAMP_MS));
  log(
    `fairness: T's 1+1 while S keeps ${FAIRNESS_LOOPS} loops of ${LOOP_TIMEOUT_MS} ms in flight, ${seconds} s`,
  );
  const loaded = await measureT(url, t, seconds, false);
  loading = false;
  log(
    `  loaded: ${loaded.calls} calls, p50 ${loaded.p50Ms} ms, p99 ${loaded.p99Ms} ms, max ${loaded.maxMs} ms, errors ${loaded.errors}`,
  );
  // S's senders end with the calls they have in flight; nobody waits for them (the node is stopped).
  void Promise.all(senders);

  const targetP99Ms = round(2 * idle.p99Ms + 100);
  return {
    loops: FAIRNESS_LOOPS,
    loopTimeoutMs: LOOP_TIMEOUT_MS,
    sandboxThreads: FAIRNESS_SANDBOX_THREADS,
    secondsPerPhase: seconds,
    idle,
    loaded,
    tenantSAnswers,
    targetP99Ms,
    pass: loaded.errors === 0 && loaded.calls > 0 && loaded.p99Ms <= targetP99Ms,
  };
}

/** The environment of the case's service node (beside the stores' URLs). */
export const fairnessNodeEnv = (nodeId: string): Record<string, string> => ({
  ROLE: 'all',
  AMQP_URL: '',
  SANDBOX_THREADS: String(FAIRNESS_SANDBOX_THREADS),
  BENCH_AGENTS: '2',
  NODE_ID: nodeId,
});

/** The PASS/FAIL line of the case, as the other targets print theirs. */
export const fairnessCheck = (f: FairnessFigures) => ({
  name: `proc_execute fairness: T's p99 with S's ${f.loops} loops queued ≤ 2× idle p99 + 100 ms`,
  value: f.loaded.p99Ms,
  target: f.targetP99Ms,
  pass: f.pass,
});

/** `BENCH_MCP_CASE=fairness`: this case alone, on a node with embedded stores; writes nothing. */
export async function runFairnessAlone(seconds: number, log: (line: string) => void): Promise<void> {
  let node: BenchProcess | undefined;
  try {
    node = startProcess('fairness', 'service.child', {
      ...fairnessNodeEnv(`bench-mcp-fairness-${process.pid}`),
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      MONGODB_URL: '',
    });
    const ready = await node.next<{ event: string; url: string; tokens: string[] }>('ready', 90_000);
    const figures = await measureFairness(ready.url, ready.tokens[0], ready.tokens[1], seconds, log);
    log(`tenant S's answers meanwhile: ${JSON.stringify(figures.tenantSAnswers)}`);
    const check = fairnessCheck(figures);
    log(`${check.pass ? 'PASS' : 'FAIL'} ${check.name}: ${check.value} (target ${check.target})`);
  } finally {
    await node?.stop(2_000);
    killAllChildren();
  }
}
