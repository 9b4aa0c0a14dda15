import type { FairnessFigures } from './fairness';
import type { HeldFigures } from './held-streams';
import type { IntentFigures } from './intent-streams';
import type { PanicFigures } from './panic-bench';
import { bareSection, per, reachSection, type BareFigures } from './report-floor';
import { panicSection } from './report-panic';
import type { FanOutFigures } from './subscribers';
import type { WorkPerRequest } from './work-counts';

export interface Check {
  name: string;
  value: number | string;
  target: string;
  pass: boolean;
}

/** Every part of the run on one layout. */
export interface LayoutFigures {
  layout: 'amqp' | 'in-process';
  describe: string;
  intent: IntentFigures;
  /** CPU time of each process over part 1, ms. */
  intentCpuMs: Record<string, number>;
  intentWork: WorkPerRequest;
  /** The first burst on the fresh processes (their code not yet compiled), and its CPU, ms. */
  intentCold?: IntentFigures;
  intentColdCpuMs?: Record<string, number>;
  /**
   * The same burst to the front door alone (front-door.route.ts: the service's way in, the same
   * events from fixed values, nothing stored), warm, and its CPU per process, ms.
   */
  frontDoor?: { figures: IntentFigures; cpuMs: Record<string, number> };
  /** Every warm burst in the order run: the service's stream, then the front door alone. */
  warmBursts?: Array<{ service: IntentFigures; frontDoor: IntentFigures }>;
  /** The parts below are absent from a reduced run (BENCH_PARTS). */
  fairness?: FairnessFigures;
  /** Every fairness round in the order run (`fairness` is the one of median B). */
  fairnessRounds?: FairnessFigures[];
  held?: HeldFigures;
  fanOut?: FanOutFigures;
  fanOutCpuMs?: Record<string, number>;
  panic?: PanicFigures;
}

export type { BareFigures } from './report-floor';

export interface StreamsReport {
  date: string;
  nproc: number;
  node: string;
  loadAverage: { before: number[]; after: number[] };
  bare?: BareFigures;
  layouts: LayoutFigures[];
  checks: Check[];
  durationSeconds: number;
}

export const PANIC_TARGET_MS = 2000;
/** The targets of issue 23 (docs/studio.md, "Cost of a stream"). */
export const TARGETS = { firstEventP99Ms: 300, doneP99Ms: 1500, cpuPerStreamMs: 3, lagP99Ms: 50 };

/** CPU of the service processes (not the benchmark itself) per unit, ms. */
export function serviceCpuPer(cpuMs: Record<string, number>, units: number): number {
  const total = Object.entries(cpuMs)
    .filter(([name, ms]) => name !== 'bench' && Number.isFinite(ms))
    .reduce((sum, [, ms]) => sum + ms, 0);
  return Math.round((total / Math.max(1, units)) * 100) / 100;
}

export function targetsOf(r: StreamsReport): Check[] {
  const checks: Check[] = [];
  for (const l of r.layouts) {
    const tag = `[${l.layout}]`;
    // Errors of every warm burst count, not only of the one kept.
    const errors = (l.warmBursts?.map((b) => b.service) ?? [l.intent]).reduce(
      (sum, f) => sum + errorCount(f),
      0,
    );
    const cpu = serviceCpuPer(l.intentCpuMs, l.intent.streams);
    checks.push(
      {
        name: `${tag} intent streams: first event p99${l.warmBursts ? ` (median of ${l.warmBursts.length} warm bursts)` : ''}`,
        value: `${l.intent.firstEventMs.p99} ms`,
        target: `≤ ${TARGETS.firstEventP99Ms} ms`,
        pass: l.intent.firstEventMs.p99 <= TARGETS.firstEventP99Ms,
      },
      {
        name: `${tag} intent streams: \`done\` p99`,
        value: `${l.intent.doneMs.p99} ms`,
        target: `≤ ${TARGETS.doneP99Ms} ms`,
        pass: l.intent.doneMs.p99 <= TARGETS.doneP99Ms,
      },
      {
        name: `${tag} CPU per stream, every service process`,
        value: `${cpu} ms`,
        target: `≤ ${TARGETS.cpuPerStreamMs} ms`,
        pass: cpu <= TARGETS.cpuPerStreamMs,
      },
      {
        name: `${tag} intent streams with an error (non-200, no \`done\`, out of order, transport)${l.warmBursts ? `, all ${l.warmBursts.length} warm bursts` : ''}`,
        value: errors,
        target: '0',
        pass: errors === 0,
      },
    );
    const { fairness, held, fanOut } = l;
    if (fairness) {
      checks.push({
        name: `${tag} another client's stream during a burst of ${fairness.burst.streams}: first event${l.fairnessRounds ? ` (median of ${l.fairnessRounds.length} rounds)` : ''}`,
        value: `${fairness.single.firstEventMs} ms`,
        target: `completed, ≤ ${TARGETS.firstEventP99Ms} ms`,
        pass: fairness.single.ok && fairness.single.firstEventMs <= TARGETS.firstEventP99Ms,
      });
    }
    if (held) {
      checks.push({
        name: `${tag} held streams without an error`,
        value: `${held.complete} of ${held.streams}`,
        target: `${held.streams}`,
        pass: held.failed === 0,
      });
    }
    if (fanOut) {
      checks.push(
        {
          name: `${tag} subscribers of one execution: delivery lag p99`,
          value: `${fanOut.lagMs.p99} ms`,
          target: `≤ ${TARGETS.lagP99Ms} ms`,
          pass: fanOut.lagMs.p99 <= TARGETS.lagP99Ms,
        },
        {
          name: `${tag} subscribers that got every event once, in order`,
          value: `${fanOut.complete - fanOut.divergent} of ${fanOut.subscribers}`,
          target: `${fanOut.subscribers}`,
          pass: fanOut.complete === fanOut.subscribers && fanOut.divergent === 0 && fanOut.failed === 0,
        },
      );
    }
    const panic = l.panic;
    if (panic) {
      const active = (panic.before.RUNNING ?? 0) + (panic.before.QUEUED ?? 0) + (panic.before.PAUSED ?? 0);
      checks.push(
        {
          name: `${tag} panic answered (POST /api/panic)`,
          value: `${panic.latencyMs} ms`,
          target: `≤ ${PANIC_TARGET_MS} ms`,
          pass: panic.status === 200 && panic.latencyMs <= PANIC_TARGET_MS,
        },
        {
          name: `${tag} steps started after the panic was answered (markers / records)`,
          value: `${panic.stepsStartedAfterAnswer} / ${panic.persistedStepsStartedAfterAnswer}`,
          target: '0 / 0',
          pass: panic.stepsStartedAfterAnswer === 0 && panic.persistedStepsStartedAfterAnswer === 0,
        },
        {
          name: `${tag} \`stopped\` equals the active executions`,
          value: `${panic.stopped} of ${active}`,
          target: `${active}`,
          pass: panic.stoppedMatchesActive && panic.aborts.every((a) => a.inFlightAfter === 0),
        },
      );
    }
  }
  return checks;
}

const la = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');

function cpuLine(cpuMs: Record<string, number>, units: number, unit: string): string {
  const entries = Object.entries(cpuMs).filter(([, ms]) => Number.isFinite(ms));
  return (
    `CPU per ${unit} (µs): all service processes ${(serviceCpuPer(cpuMs, units) * 1000).toFixed(0)} — ` +
    entries.map(([name, ms]) => `${name} ${per(ms, units)}`).join(', ') +
    (cpuMs.rabbitmq !== undefined
      ? ' (RabbitMQ and Redis: their whole CPU over the part, other users included).'
      : '.')
  );
}

function fairnessSection(fairness: FairnessFigures, rounds?: readonly FairnessFigures[]): string[] {
  return [
    '### Fairness',
    '',
    `Client A sends ${fairness.burst.streams} streams at once; client B (another account) one, just after them.`,
    `B: first event **${fairness.single.firstEventMs} ms**, \`done\` ${fairness.single.doneMs} ms (${fairness.single.ok ? 'COMPLETED' : '**failed**'}). ` +
      `A: first event p50 ${fairness.burst.firstEventMs.p50} / p99 ${fairness.burst.firstEventMs.p99} ms, \`done\` p99 ${fairness.burst.doneMs.p99} ms.`,
    ...(rounds && rounds.length > 1
      ? [
          `Every round (B's first event, ms; kept: the median): ${rounds
            .map((r) => `${r.single.ok ? r.single.firstEventMs : 'failed'}${r === fairness ? ' (kept)' : ''}`)
            .join(', ')}.`,
        ]
      : []),
    '',
  ];
}

function heldSection(held: HeldFigures): string[] {
  const rss = (kb: Record<string, number>) =>
    Object.entries(kb)
      .map(([k, v]) => `${k} ${Math.round(v / 1024)} MB`)
      .join(', ');
  return [
    '### Held streams',
    '',
    `${held.streams} clients of \`GET /api/executions/{id}/events\` over ${held.executions} \`DEMO_STEPS\` executions, all connected, then all resumed:`,
    `${held.complete} got every log line in order and \`done\` COMPLETED, ${held.failed} failed; ${held.events} events delivered in ${held.runMs} ms.`,
    `Memory per open stream: **${held.kbPerStream} KB** over the service processes (resident: before ${rss(held.rssBeforeKb)}; all open ${rss(held.rssOpenKb)}).`,
    '',
  ];
}

function fanOutSection(fanOut: FanOutFigures, cpuMs: Record<string, number>): string[] {
  return [
    '### Subscribers of one execution',
    '',
    `${fanOut.subscribers} clients of one \`DEMO_STEPS\` execution of ${fanOut.steps} steps of ${fanOut.stepMs} ms; lag = receipt time minus the time the event carries.`,
    '',
    '| | deliveries | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    `| every timestamped event | ${fanOut.lagMs.n} | ${fanOut.lagMs.p50} | ${fanOut.lagMs.p99} | ${fanOut.lagMs.max} |`,
    `| log lines | ${fanOut.logLagMs.n} | ${fanOut.logLagMs.p50} | ${fanOut.logLagMs.p99} | ${fanOut.logLagMs.max} |`,
    `| per event: its first subscriber's lag (before the fan-out) | ${fanOut.firstLagMs.n} events | ${fanOut.firstLagMs.p50} | ${fanOut.firstLagMs.p99} | ${fanOut.firstLagMs.max} |`,
    `| per event: last subscriber's receipt − first's (the fan-out) | ${fanOut.fanOutMs.n} events | ${fanOut.fanOutMs.p50} | ${fanOut.fanOutMs.p99} | ${fanOut.fanOutMs.max} |`,
    '',
    `Every log line once and in order, \`done\` COMPLETED: ${fanOut.complete} of ${fanOut.subscribers}; divergent ${fanOut.divergent}; failed ${fanOut.failed}.`,
    cpuLine(cpuMs, Math.max(1, fanOut.lagMs.n), 'delivery'),
    '',
  ];
}

/** Every warm burst in the order run, the one kept marked. */
function warmBurstsTable(bursts: NonNullable<LayoutFigures['warmBursts']>, kept: IntentFigures): string[] {
  return [
    'Warm bursts in the order run, each followed by the same burst to the front door alone (kept: the median first-event p99):',
    '',
    '| burst | first event p50 / p99 ms | `done` p99 ms | errors | front door alone: first event p50 / p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...bursts.map(
      (b, i) =>
        `| ${i + 1}${b.service === kept ? ' (kept)' : ''} | ${b.service.firstEventMs.p50} / ${b.service.firstEventMs.p99} | ${b.service.doneMs.p99} | ${errorCount(b.service)} | ${b.frontDoor.firstEventMs.p50} / ${b.frontDoor.firstEventMs.p99} |`,
    ),
    '',
  ];
}

/** Streams of a burst that failed in any way. */
function errorCount(f: IntentFigures): number {
  return f.errors.non200 + f.errors.missingDone + f.errors.outOfOrder + f.errors.transport;
}

function layoutSection(l: LayoutFigures): string[] {
  const { intent, fairness, held, fanOut, intentWork: w } = l;
  const sequences = Object.entries(intent.sequences)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `\`${k}\` × ${n}`)
    .join(', ');
  const docs = Object.entries(w.documents)
    .filter(([k]) => k !== 'total')
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const turns = Object.entries(w.turnsByType)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `## ${l.layout === 'amqp' ? 'AMQP layout' : 'In-process layout'}: ${l.describe}`,
    '',
    `### Concurrent intent streams`,
    '',
    `${intent.streams} \`POST /api/studio/intent/stream\` at once, one connection each, message \`${intent.message}\``,
    '(the planner runs the read-only command `status`: answered at once on the node that got the request).',
    '',
    '| | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|',
    `| first event (\`execution\`) | ${intent.firstEventMs.p50} | ${intent.firstEventMs.p99} | ${intent.firstEventMs.max} |`,
    `| \`done\` | ${intent.doneMs.p50} | ${intent.doneMs.p99} | ${intent.doneMs.max} |`,
    ...(l.intentCold
      ? [
          `| cold (the first burst of the fresh processes): first event | ${l.intentCold.firstEventMs.p50} | ${l.intentCold.firstEventMs.p99} | ${l.intentCold.firstEventMs.max} |`,
          `| cold: \`done\` | ${l.intentCold.doneMs.p50} | ${l.intentCold.doneMs.p99} | ${l.intentCold.doneMs.max} |`,
        ]
      : []),
    ...(l.frontDoor
      ? [
          `| front door alone (the same way in, fixed events, nothing stored): first event | ${l.frontDoor.figures.firstEventMs.p50} | ${l.frontDoor.figures.firstEventMs.p99} | ${l.frontDoor.figures.firstEventMs.max} |`,
        ]
      : []),
    '',
    ...(l.warmBursts ? warmBurstsTable(l.warmBursts, intent) : []),
    `All ended within ${intent.wallMs} ms. Streams: ${sequences}. Errors: non-200 ${intent.errors.non200}, ` +
      `no \`done\` ${intent.errors.missingDone}, out of order ${intent.errors.outOfOrder}, transport ${intent.errors.transport}.`,
    cpuLine(l.intentCpuMs, intent.streams, 'stream'),
    ...(l.intentColdCpuMs ? [`Cold burst: ${cpuLine(l.intentColdCpuMs, intent.streams, 'stream')}`] : []),
    ...(l.frontDoor
      ? [
          `Front door alone (\`POST /bench/front-door/stream\`, bench/streams/front-door.route.ts; errors ${errorCount(l.frontDoor.figures)}): ${cpuLine(l.frontDoor.cpuMs, l.frontDoor.figures.streams, 'stream')}`,
        ]
      : []),
    `Work per stream: document commands ${w.documents.total ?? 0} (${docs || 'none'}; writes ${w.writes}); ` +
      `broker messages ${w.messages} (commands ${w.commands}, replies and stream items ${w.replies}, broadcasts ${w.broadcasts} × ${l.layout === 'amqp' ? 3 : 1} nodes); ` +
      `actor turns ${w.turns}${turns ? ` (${turns})` : ''}.`,
    '',
    ...(fairness ? fairnessSection(fairness, l.fairnessRounds) : []),
    ...(held ? heldSection(held) : []),
    ...(fanOut ? fanOutSection(fanOut, l.fanOutCpuMs ?? {}) : []),
    ...(l.panic ? panicSection(l.panic, '### Panic') : []),
  ];
}

export function markdown(r: StreamsReport): string {
  // Quiet means the 1-minute load below 2 when the run starts: the 5/15-minute figures still carry
  // work that ended before it, and the load after is the benchmark's own.
  const high = r.loadAverage.before[0]! > 2;
  const notes = r.layouts.flatMap((l) => [
    ...l.intent.samples,
    ...(l.fairness?.burst.samples ?? []),
    ...(l.held?.samples ?? []),
    ...(l.fanOut?.samples ?? []),
    ...(l.panic?.samples ?? []),
  ]);
  return [
    '# bench:streams — intent streams, fairness, held streams, event fan-out, panic',
    '',
    `Run \`npm run bench:streams\` (bench/streams/run.ts). ${r.date}, ${r.nproc} cores, Node ${r.node}.`,
    `Load average (1/5/15 min): ${la(r.loadAverage.before)} before, ${la(r.loadAverage.after)} after` +
      (high ? ' — **high (> 2): other work shared the machine, latencies are pessimistic**.' : '.'),
    `The run took ${r.durationSeconds} s. Nodes log at level error.`,
    '',
    ...(r.bare ? bareSection(r.bare) : []),
    ...(r.bare && r.layouts.length > 0
      ? reachSection(
          r.bare,
          r.layouts.map((l) => ({ layout: l.layout, service: l.intent, frontDoor: l.frontDoor?.figures })),
          TARGETS.firstEventP99Ms,
        )
      : []),
    ...r.layouts.flatMap(layoutSection),
    '## Targets',
    '',
    '| check | value | target | result |',
    '|---|---:|---:|---|',
    ...r.checks.map((c) => `| ${c.name} | ${c.value} | ${c.target} | ${c.pass ? 'pass' : '**fail**'} |`),
    ...(notes.length > 0 ? ['', 'Notes from the run:', '', ...notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}
