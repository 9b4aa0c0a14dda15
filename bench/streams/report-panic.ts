import type { PanicFigures } from './panic-bench';

/** The markdown section of the panic part (AMQP layout). */
export function panicSection(panic: PanicFigures, heading: string): string[] {
  const aborts = panic.aborts
    .map(
      (a, i) =>
        `| worker ${i + 1} | ${panic.inFlightBefore[i] ?? ''} | ${a.aborted} | ${a.lastAbortMs ?? '—'} | ${a.endedWithoutAbort} | ${a.inFlightAfter} |`,
    )
    .join('\n');
  const total = panic.mix.running + panic.mix.queued + panic.mix.paused;
  return [
    heading,
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
  ];
}
