import type { Pool } from 'undici';
import { callJson, spread, type SseEvent } from './http-client';
import { requestStream, type Target } from './raw-stream-client';

/** What `subscribers` SSE clients of one execution received. */
export interface FanOutFigures {
  subscribers: number;
  steps: number;
  stepMs: number;
  /** Events of the run each subscriber should get after the resume (from subscriber 0). */
  liveEvents: number;
  /** Persisted log lines of the execution at the end. */
  logLines: number;
  /** Receipt time minus the event's own time, every timestamped live event of every subscriber, ms. */
  lagMs: ReturnType<typeof spread>;
  /** The same for `log` events only (their `at` is the time the line was written). */
  logLagMs: ReturnType<typeof spread>;
  /**
   * Per live event, the lag of the subscriber that got it first: what comes before the fan-out
   * (the step's write, the broadcast, the watch), ms.
   */
  firstLagMs: ReturnType<typeof spread>;
  /** Per live event, its last subscriber's receipt minus its first's: the fan-out itself, ms. */
  fanOutMs: ReturnType<typeof spread>;
  /** Subscribers that got every log line in order (1..n, no gap, none twice) and ended with `done`. */
  complete: number;
  /** Subscribers whose sequence of live events differs from the others'. */
  divergent: number;
  /** Subscribers whose stream failed or ended without `done`, or with a status other than COMPLETED. */
  failed: number;
  samples: string[];
}

/** The time an event carries: a log line's `at`, an execution's `updatedAt`, a step's end or start. */
function timeOf(e: SseEvent): number | undefined {
  const d = e.data as {
    log?: { at?: string };
    execution?: { updatedAt?: string };
    step?: { startedAt?: string; endedAt?: string };
  };
  const at =
    e.event === 'log'
      ? d.log?.at
      : e.event === 'execution'
        ? d.execution?.updatedAt
        : e.event === 'step'
          ? (d.step?.endedAt ?? d.step?.startedAt)
          : undefined;
  const t = at ? Date.parse(at) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
}

/** A stable description of an event, to compare what subscribers got. */
function signature(e: SseEvent): string {
  const d = e.data as {
    log?: { seq?: number };
    execution?: { status?: string; progress?: { completedSteps?: number } };
    step?: { index?: number; status?: string };
    status?: string;
    code?: string;
  };
  switch (e.event) {
    case 'log':
      return `log:${d.log?.seq}`;
    case 'execution':
      return `execution:${d.execution?.status}:${d.execution?.progress?.completedSteps}`;
    case 'step':
      return `step:${d.step?.index}:${d.step?.status}`;
    case 'done':
      return `done:${d.status}`;
    default:
      return `${e.event}:${d.code ?? ''}`;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `subscribers` clients of `GET /api/executions/{id}/events` on one DEMO_STEPS execution of
 * `steps` sleeps: the execution is created QUEUED and paused, every client connects and gets the
 * current state, then it is resumed and runs to its end while they all watch.
 */
export async function runSubscribers(
  pool: Pool,
  target: Target,
  token: string,
  subscribers: number,
  steps: number,
  stepMs: number,
): Promise<FanOutFigures> {
  const samples: string[] = [];
  const sample = (line: string) => samples.length < 5 && samples.push(line);
  const created = await callJson(pool, 'POST', '/api/executions', token, {
    title: 'bench:streams fan-out',
    start: false,
    steps: Array.from({ length: steps }, (_, i) => ({ op: 'sleep', ms: stepMs, name: `wait ${i + 1}` })),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = (created.body as { execution: { id: string } }).execution.id;
  const paused = await callJson(pool, 'POST', `/api/executions/${id}/actions`, token, { action: 'pause' });
  if (paused.status !== 200) throw new Error(`pause: ${paused.status} ${JSON.stringify(paused.body)}`);

  const received: SseEvent[][] = Array.from({ length: subscribers }, () => []);
  const ended: Array<string | undefined> = new Array(subscribers).fill(undefined);
  // Each subscriber on a connection of its own, read by the plain-socket client: with undici's
  // pool the benchmark's own CPU per delivery (its body streams) showed up in the lag.
  const streams = received.map(async (events, i) => {
    try {
      const res = await requestStream(
        target,
        'GET',
        `/api/executions/${id}/events`,
        { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        undefined,
        90_000,
        (e) => events.push(e),
      );
      ended[i] = res.status === 200 ? 'ended' : `HTTP ${res.status}`;
    } catch (err) {
      ended[i] = `transport: ${(err as Error)?.message ?? String(err)}`;
    }
  });

  // Every client is following (it got the current state) before the run resumes.
  const deadline = Date.now() + 30_000;
  while (
    received.some((events, i) => ended[i] === undefined && !events.some((e) => e.event === 'execution'))
  ) {
    if (Date.now() > deadline) throw new Error('subscribers did not all get the current state within 30 s');
    await sleep(20);
  }
  const snapshot = received.map((events) => events.length);
  const resumedAt = Date.now();
  const resumed = await callJson(pool, 'POST', `/api/executions/${id}/actions`, token, { action: 'resume' });
  if (resumed.status !== 200) throw new Error(`resume: ${resumed.status} ${JSON.stringify(resumed.body)}`);
  await Promise.all(streams);

  const detail = await callJson(pool, 'GET', `/api/executions/${id}`, token);
  const logs = (detail.body as { logs: Array<{ seq: number }> }).logs;
  const expectedSeqs = logs.map((l) => l.seq).join(',');

  const lags: number[] = [];
  const logLags: number[] = [];
  // Per live event (by its signature and time), the first and last receipt across subscribers.
  const receipts = new Map<string, { t: number; first: number; last: number }>();
  let complete = 0;
  let divergent = 0;
  let failed = 0;
  // The reference sequence: the first subscriber whose stream ended normally with `done`.
  const ok = (i: number) => ended[i] === 'ended' && received[i]!.at(-1)?.event === 'done';
  const ref = Math.max(
    0,
    received.findIndex((_, i) => ok(i)),
  );
  const reference = received[ref]!.slice(snapshot[ref]).map(signature).join(' ');
  received.forEach((events, i) => {
    const live = events.slice(snapshot[i]);
    for (const e of live) {
      const t = timeOf(e);
      if (t === undefined || t < resumedAt - 5) continue; // older than the run: the state at connection
      lags.push(e.receivedAt - t);
      if (e.event === 'log') logLags.push(e.receivedAt - t);
      const key = `${signature(e)}@${t}`;
      const r = receipts.get(key);
      if (!r) receipts.set(key, { t, first: e.receivedAt, last: e.receivedAt });
      else {
        r.first = Math.min(r.first, e.receivedAt);
        r.last = Math.max(r.last, e.receivedAt);
      }
    }
    const last = events.at(-1);
    const status = (last?.data as { status?: string } | undefined)?.status;
    if (ended[i] !== 'ended' || last?.event !== 'done' || status !== 'COMPLETED') {
      failed += 1;
      sample(`subscriber ${i}: ${ended[i]}, last ${last?.event ?? 'none'} ${status ?? ''}`);
      return;
    }
    const seqs = events
      .filter((e) => e.event === 'log')
      .map((e) => (e.data as { log: { seq: number } }).log.seq)
      .join(',');
    if (seqs === expectedSeqs) complete += 1;
    else sample(`subscriber ${i}: log lines ${seqs} instead of ${expectedSeqs}`);
    if (live.map(signature).join(' ') !== reference) {
      divergent += 1;
      sample(`subscriber ${i}: live events differ`);
    }
  });

  return {
    subscribers,
    steps,
    stepMs,
    liveEvents: received[ref]!.length - snapshot[ref]!,
    logLines: logs.length,
    lagMs: spread(lags),
    logLagMs: spread(logLags),
    firstLagMs: spread([...receipts.values()].map((r) => r.first - r.t)),
    fanOutMs: spread([...receipts.values()].map((r) => r.last - r.first)),
    complete,
    divergent,
    failed,
    samples,
  };
}
