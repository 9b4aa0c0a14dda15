import type { Db } from 'mongodb';
import type { Pool } from 'undici';
import { executionsCollection } from '../../actors/executions/executions.collection';
import { callJson, mapLimit } from './http-client';
import { BENCH_LOOP_TYPE, type MarkerReport } from './loop-runner';

/** The executions of the panic case, by the status they have when the button is pressed. */
export interface PanicMix {
  running: number;
  queued: number;
  paused: number;
}

export interface PanicFigures {
  mix: PanicMix;
  /** Each running execution waits this long per step (spread evenly over the range), ms. */
  stepMs: [number, number];
  /** Executions per status in the workspace just before the panic (from the documents). */
  before: Record<string, number>;
  /** Steps in flight on each worker just before the panic (from the runner's markers). */
  inFlightBefore: number[];
  /** Steps started by the runners over the steady period before the panic, per second. */
  stepsPerSecondBefore: number;
  status: number;
  /** From sending `POST /api/panic` to its answer, ms. */
  latencyMs: number;
  stopped: number;
  /** Whether the answer lists exactly the executions that were active. */
  stoppedMatchesActive: boolean;
  /** Steps a runner started after the answer (must be 0), and between the request and the answer. */
  stepsStartedAfterAnswer: number;
  stepsStartedDuringPanic: number;
  /** Steps whose runner was called with its signal already aborted (they did nothing), whole run. */
  stepsHandedOverAborted: number;
  /** Step records persisted with `startedAt` after the answer (must be 0). */
  persistedStepsStartedAfterAnswer: number;
  /** Per worker: steps in flight at the panic whose signal aborted, and when the last one did (ms after the request). */
  aborts: Array<{
    aborted: number;
    lastAbortMs: number | null;
    endedWithoutAbort: number;
    inFlightAfter: number;
  }>;
  /** After the settle time: statuses of the executions, and steps still RUNNING in their records. */
  after: Record<string, number>;
  stepsStillRunning: number;
  samples: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function statusCounts(db: Db, workspaceId: string): Promise<Record<string, number>> {
  const rows = await db
    .collection(executionsCollection.name)
    .aggregate<{ _id: string; n: number }>([
      { $match: { workspaceId } },
      { $group: { _id: '$status', n: { $sum: 1 } } },
    ])
    .toArray();
  return Object.fromEntries(rows.map((r) => [r._id, r.n]));
}

/**
 * Panic over a cluster: `mix` executions of `BENCH_LOOP` (steps that never end the run) in one
 * workspace, the running ones spread over the workers; once every running one is running and a
 * steady period has passed, `POST /api/panic {workspaceId}`. Then checks, from the runners' own
 * markers on each worker and from the persisted step records, that no step started after the
 * answer, and how long the workers took to abort the steps in flight.
 */
export async function runPanic(opts: {
  pool: Pool;
  token: string;
  db: Db;
  mix: PanicMix;
  stepMs: [number, number];
  steadyMs: number;
  settleMs: number;
  markers: (since: number) => Promise<MarkerReport[]>;
  log: (line: string) => void;
  /** Told the workspace as soon as it is known (for the cleanup). */
  onWorkspace: (workspaceId: string) => void;
}): Promise<PanicFigures> {
  const { pool, token, db, mix, stepMs, log } = opts;
  const samples: string[] = [];
  const total = mix.running + mix.queued + mix.paused;
  const stepOf = (i: number) =>
    Math.round(stepMs[0] + ((stepMs[1] - stepMs[0]) * i) / Math.max(1, mix.running - 1));

  // QUEUED and PAUSED ones first (start: false), then the running ones.
  const plan = Array.from({ length: total }, (_, i) => ({ start: i >= mix.queued + mix.paused, i }));
  let workspaceId = '';
  const ids = await mapLimit(plan, 32, async ({ start, i }) => {
    const res = await callJson(pool, 'POST', '/api/executions', token, {
      type: BENCH_LOOP_TYPE,
      title: `bench:streams loop ${i}`,
      input: { stepMs: stepOf(i) },
      start,
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    const execution = (res.body as { execution: { id: string; workspaceId: string } }).execution;
    workspaceId = execution.workspaceId;
    return execution.id;
  });
  await mapLimit(ids.slice(mix.queued, mix.queued + mix.paused), 32, async (id) => {
    const res = await callJson(pool, 'POST', `/api/executions/${id}/actions`, token, { action: 'pause' });
    if (res.status !== 200) throw new Error(`pause: ${res.status} ${JSON.stringify(res.body)}`);
  });
  opts.onWorkspace(workspaceId);
  log(`  ${total} executions created; waiting for ${mix.running} to run`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const counts = await statusCounts(db, workspaceId);
    if ((counts.RUNNING ?? 0) >= mix.running) break;
    if (Date.now() > deadline) throw new Error(`not all running in time: ${JSON.stringify(counts)}`);
    await sleep(250);
  }
  const steadyFrom = Date.now();
  await sleep(opts.steadyMs);

  const before = await statusCounts(db, workspaceId);
  const atPanic = Date.now();
  const reportsBefore = await opts.markers(steadyFrom);
  const inFlightBefore = reportsBefore.map((r) => r.inFlight);
  const startedSteady = reportsBefore.reduce(
    (n, r) => n + r.startsSince.filter(([t]) => t < atPanic).length,
    0,
  );
  log(
    `  before the panic: ${JSON.stringify(before)}; steps in flight per worker ${inFlightBefore.join(', ')}`,
  );

  const sentAt = Date.now();
  const res = await callJson(pool, 'POST', '/api/panic', token, { workspaceId });
  const answeredAt = Date.now();
  const body = res.body as { stopped?: number; executions?: Array<{ id: string }> };
  const active = (before.RUNNING ?? 0) + (before.QUEUED ?? 0) + (before.PAUSED ?? 0);
  const listed = new Set((body.executions ?? []).map((e) => e.id));
  const ours = new Set(ids);
  const stoppedMatchesActive =
    body.stopped === active && listed.size === active && [...listed].every((id) => ours.has(id));
  log(`  panic answered ${res.status} in ${answeredAt - sentAt} ms: stopped ${body.stopped}`);
  if (res.status !== 200) samples.push(`panic: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);

  // Let every worker hear the broadcast and every aborted step report back, then read the markers.
  const settleUntil = Date.now() + opts.settleMs;
  await sleep(opts.settleMs);
  let reports: MarkerReport[] = await opts.markers(sentAt);
  // Steps still in flight get up to 10 s more (a worker that missed the broadcast shows here).
  while (reports.some((r) => r.inFlight > 0) && Date.now() < settleUntil + 10_000) {
    await sleep(250);
    reports = await opts.markers(sentAt);
  }

  const starts = reports.flatMap((r) => r.startsSince);
  const late = starts.filter(([t]) => t > answeredAt);
  for (const [t, id, index] of late.slice(0, 3)) {
    samples.push(`step ${index} of ${id} started ${t - answeredAt} ms after the answer`);
  }
  const aborts = reports.map((r) => {
    const last = r.abortsSince.reduce((m, [t]) => Math.max(m, t), 0);
    return {
      aborted: r.abortsSince.length,
      lastAbortMs: r.abortsSince.length > 0 ? last - sentAt : null,
      endedWithoutAbort: r.endedWithoutAbortSince,
      inFlightAfter: r.inFlight,
    };
  });

  const docs = await db
    .collection<{ _id: string; steps: Array<{ startedAt: Date; status: string }> }>(executionsCollection.name)
    .find({ workspaceId }, { projection: { steps: 1 } })
    .toArray();
  let persistedLate = 0;
  let stillRunning = 0;
  for (const doc of docs) {
    for (const step of doc.steps ?? []) {
      if (new Date(step.startedAt).getTime() > answeredAt) persistedLate += 1;
      if (step.status === 'RUNNING') stillRunning += 1;
    }
  }
  const after = await statusCounts(db, workspaceId);

  const lifted = await callJson(pool, 'DELETE', '/api/panic', token, { workspaceId });
  if (lifted.status !== 200) samples.push(`lift: HTTP ${lifted.status}`);

  return {
    mix,
    stepMs,
    before,
    inFlightBefore,
    stepsPerSecondBefore: Math.round((startedSteady / Math.max(1, atPanic - steadyFrom)) * 1000),
    status: res.status,
    latencyMs: answeredAt - sentAt,
    stopped: body.stopped ?? 0,
    stoppedMatchesActive,
    stepsStartedAfterAnswer: late.length,
    stepsStartedDuringPanic: starts.filter(([t]) => t >= sentAt && t <= answeredAt).length,
    stepsHandedOverAborted: reports.reduce((n, r) => n + r.startedAborted, 0),
    persistedStepsStartedAfterAnswer: persistedLate,
    aborts,
    after,
    stepsStillRunning: stillRunning,
    samples,
  };
}
