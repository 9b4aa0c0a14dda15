import type { IntentFigures } from './intent-streams';
import type { PanicFigures } from './panic-bench';
import type { FanOutFigures } from './subscribers';

export interface Check {
  name: string;
  value: number | string;
  target: string;
  pass: boolean;
}

export interface StreamsReport {
  date: string;
  nproc: number;
  node: string;
  loadAverage: { before: number[]; after: number[] };
  layout: string;
  intent: IntentFigures;
  fanOut: FanOutFigures;
  panic: PanicFigures;
  /** CPU time of each process over parts 1 and 2, ms. */
  cpuMs: { intent: Record<string, number>; fanOut: Record<string, number> };
  checks: Check[];
  durationSeconds: number;
}

export const PANIC_TARGET_MS = 2000;

/** The targets of the run: panic answered within 2 s, nothing started after it, nothing lost. */
export function targetsOf(r: StreamsReport): Check[] {
  const { intent, fanOut, panic } = r;
  const active = (panic.before.RUNNING ?? 0) + (panic.before.QUEUED ?? 0) + (panic.before.PAUSED ?? 0);
  const intentErrors = Object.values(intent.errors).reduce((a, b) => a + b, 0);
  return [
    {
      name: 'panic answered (POST /api/panic)',
      value: `${panic.latencyMs} ms`,
      target: `≤ ${PANIC_TARGET_MS} ms`,
      pass: panic.status === 200 && panic.latencyMs <= PANIC_TARGET_MS,
    },
    {
      name: 'steps started after the panic was answered (runners\u2019 markers)',
      value: panic.stepsStartedAfterAnswer,
      target: '0',
      pass: panic.stepsStartedAfterAnswer === 0,
    },
    {
      name: 'steps started after the panic was answered (persisted step records)',
      value: panic.persistedStepsStartedAfterAnswer,
      target: '0',
      pass: panic.persistedStepsStartedAfterAnswer === 0,
    },
    {
      name: '`stopped` equals the active executions (and lists each)',
      value: `${panic.stopped} of ${active}`,
      target: `${active}`,
      pass: panic.stoppedMatchesActive,
    },
    {
      name: 'steps in flight left running on the workers after the panic',
      value: panic.aborts.reduce((n, a) => n + a.inFlightAfter, 0),
      target: '0',
      pass: panic.aborts.every((a) => a.inFlightAfter === 0),
    },
    {
      name: 'intent streams with an error (non-200, no `done`, out of order, transport)',
      value: intentErrors,
      target: '0',
      pass: intentErrors === 0,
    },
    {
      name: 'subscribers that got every event, in order',
      value: `${fanOut.complete - fanOut.divergent} of ${fanOut.subscribers}`,
      target: `${fanOut.subscribers}`,
      pass: fanOut.complete === fanOut.subscribers && fanOut.divergent === 0 && fanOut.failed === 0,
    },
  ];
}

const la = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');

/** CPU ms per unit of work, by process, and their sum. */
function cpuLine(cpuMs: Record<string, number>, units: number, unit: string): string {
  const entries = Object.entries(cpuMs).filter(([, ms]) => Number.isFinite(ms));
  const total = entries.filter(([name]) => name !== 'bench').reduce((sum, [, ms]) => sum + ms, 0);
  const per = (ms: number) => ((ms * 1000) / units).toFixed(0);
  return (
    `CPU per ${unit} (µs): all service processes ${per(total)} — ` +
    entries.map(([name, ms]) => `${name} ${per(ms)}`).join(', ') +
    ' (RabbitMQ and Redis: their whole CPU over the part, other users included).'
  );
}

export function markdown(r: StreamsReport): string {
  const { intent, fanOut, panic } = r;
  const high = Math.max(...r.loadAverage.before, ...r.loadAverage.after) > 2;
  const sequences = Object.entries(intent.sequences)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `\`${k}\` × ${n}`)
    .join(', ');
  const aborts = panic.aborts
    .map(
      (a, i) =>
        `| worker ${i + 1} | ${panic.inFlightBefore[i] ?? ''} | ${a.aborted} | ${a.lastAbortMs ?? '—'} | ${a.endedWithoutAbort} | ${a.inFlightAfter} |`,
    )
    .join('\n');
  const total = panic.mix.running + panic.mix.queued + panic.mix.paused;
  const notes = [...intent.samples, ...fanOut.samples, ...panic.samples];
  return [
    '# bench:streams — intent streams, event fan-out, panic',
    '',
    `Run \`npm run bench:streams\` (bench/streams/run.ts). ${r.date}, ${r.nproc} cores, Node ${r.node}.`,
    `Load average (1/5/15 min): ${la(r.loadAverage.before)} before, ${la(r.loadAverage.after)} after` +
      (high ? ' — **high (> 2): other work shared the machine, latencies are pessimistic**.' : '.'),
    `The run took ${r.durationSeconds} s. Layout: ${r.layout}. Nodes log at level error.`,
    '',
    '## 1. Concurrent intent streams',
    '',
    `${intent.streams} \`POST /api/studio/intent/stream\` sent at once, one connection each, with the message`,
    `\`${intent.message}\`: the deterministic planner runs the read-only command \`status\` (no model, no tool call).`,
    'Each request creates a `CHAT_EXECUTION` on a worker and streams its events. Times from sending the request:',
    '',
    '| | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|',
    `| first event (\`execution\`) | ${intent.firstEventMs.p50} | ${intent.firstEventMs.p99} | ${intent.firstEventMs.max} |`,
    `| \`done\` | ${intent.doneMs.p50} | ${intent.doneMs.p99} | ${intent.doneMs.max} |`,
    '',
    `All ${intent.streams} ended within ${intent.wallMs} ms. Streams: ${sequences}.`,
    `Errors: non-200 ${intent.errors.non200}, no \`done\` ${intent.errors.missingDone}, ` +
      `out of the documented order ${intent.errors.outOfOrder}, transport ${intent.errors.transport}.`,
    cpuLine(r.cpuMs.intent, intent.streams, 'stream'),
    '',
    '## 2. Subscribers of one execution',
    '',
    `${fanOut.subscribers} clients of \`GET /api/executions/{id}/events\` on one \`DEMO_STEPS\` execution of ${fanOut.steps} steps of ${fanOut.stepMs} ms:`,
    'created, paused, every client connected (and got the current state), then resumed.',
    'Lag = receipt time in the benchmark minus the time the event carries (a log line\u2019s `at`, an',
    'execution\u2019s `updatedAt`, a step\u2019s `endedAt` or `startedAt`), for each event of the run and each subscriber',
    `(${fanOut.liveEvents} events per subscriber after the resume; ${fanOut.logLines} log lines persisted).`,
    '',
    '| | deliveries | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    `| every timestamped event | ${fanOut.lagMs.n} | ${fanOut.lagMs.p50} | ${fanOut.lagMs.p99} | ${fanOut.lagMs.max} |`,
    `| log lines | ${fanOut.logLagMs.n} | ${fanOut.logLagMs.p50} | ${fanOut.logLagMs.p99} | ${fanOut.logLagMs.max} |`,
    '',
    `Every log line in order (1..n, no gap, none twice) and \`done\` COMPLETED: ${fanOut.complete} of ${fanOut.subscribers}.`,
    `Live events different from the others\u2019: ${fanOut.divergent}. Failed streams: ${fanOut.failed}.`,
    cpuLine(r.cpuMs.fanOut, Math.max(1, fanOut.lagMs.n), 'delivery'),
    '',
    '## 3. Panic',
    '',
    `${total} executions of \`BENCH_LOOP\` in one workspace, over 2 worker processes. \`BENCH_LOOP\` is a step type of`,
    `the benchmark (bench/streams/loop-runner.ts): each step waits ${panic.stepMs[0]}–${panic.stepMs[1]} ms (abortable) and the run never`,
    `ends by itself. Before the panic: ${JSON.stringify(panic.before)}, ${panic.stepsPerSecondBefore} steps started per second.`,
    'Each runner records, in its own process, the wall-clock time of every step it starts (a step handed',
    'over with its signal already aborted does nothing and is not a start) and when the signal of each',
    'step in flight aborts; the benchmark reads these markers from the workers after the panic, and the',
    'persisted step records (`startedAt`) from the document server.',
    '',
    '| | |',
    '|---|---|',
    `| \`POST /api/panic {workspaceId}\` | HTTP ${panic.status} in **${panic.latencyMs} ms** |`,
    `| \`stopped\` | ${panic.stopped} (lists exactly the active executions: ${panic.stoppedMatchesActive ? 'yes' : '**no**'}) |`,
    `| steps started after the answer: runners / persisted records | **${panic.stepsStartedAfterAnswer}** / **${panic.persistedStepsStartedAfterAnswer}** |`,
    `| steps started between the request and the answer | ${panic.stepsStartedDuringPanic} |`,
    `| steps handed over already aborted (they did nothing) | ${panic.stepsHandedOverAborted} |`,
    `| after the settle time: statuses; step records still RUNNING | ${JSON.stringify(panic.after)}; ${panic.stepsStillRunning} |`,
    '',
    '| worker | steps in flight before | aborted by the panic | last abort, ms after the request | ended by themselves meanwhile | in flight after |',
    '|---|---:|---:|---:|---:|---:|',
    aborts,
    '',
    '## Targets',
    '',
    '| check | value | target | result |',
    '|---|---:|---:|---|',
    ...r.checks.map((c) => `| ${c.name} | ${c.value} | ${c.target} | ${c.pass ? 'pass' : '**fail**'} |`),
    ...(notes.length > 0 ? ['', 'Notes from the run:', '', ...notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}
