import type { IntentFigures } from './intent-streams';

/** The bare `node:http` reference under the same client and burst (bare-sse.child.ts). */
export interface BareFigures {
  cold: IntentFigures;
  /** The warm burst of median first-event p99. */
  warm: IntentFigures;
  /** Every warm burst in the order run (`warm` is one of them). */
  warmBursts?: IntentFigures[];
  /** Its CPU over the cold burst and over the kept warm burst, ms. */
  cpuMs: { cold: number; warm: number };
}

/** What `reachSection` compares for one layout: its kept bursts, the service's and the front door's. */
export interface LayoutReach {
  layout: string;
  service: IntentFigures;
  frontDoor?: IntentFigures;
}

/** Microseconds per unit of `ms` milliseconds over `units`, as text. */
export const per = (ms: number, units: number) => ((ms * 1000) / Math.max(1, units)).toFixed(0);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');

export function bareSection(b: BareFigures): string[] {
  const row = (name: string, f: IntentFigures, cpuMs: number) =>
    `| ${name} | ${f.firstEventMs.p50} | ${f.firstEventMs.p99} | ${f.doneMs.p99} | ${per(cpuMs, f.streams)} |`;
  const warmRuns = b.warmBursts ?? [b.warm];
  return [
    '## The floor: a bare `node:http` server, same client, same burst',
    '',
    `${b.warm.streams} \`POST\` at once, one new connection each, answered with three fixed events (bench/streams/bare-sse.child.ts):`,
    'what the connections and the client cost on this machine before the service does anything.',
    '',
    '| | first event p50 ms | first event p99 ms | `done` p99 ms | server CPU per stream µs |',
    '|---|---:|---:|---:|---:|',
    row('cold', b.cold, b.cpuMs.cold),
    row(warmRuns.length > 1 ? `warm (median of ${warmRuns.length} bursts)` : 'warm', b.warm, b.cpuMs.warm),
    '',
    ...(warmRuns.length > 1
      ? [
          `Every warm burst, first event p99 ms (kept: the median): ${warmRuns
            .map((f) => `${f.firstEventMs.p99}${f === b.warm ? ' (kept)' : ''}`)
            .join(', ')}.`,
          '',
        ]
      : []),
  ];
}

/**
 * How far each layout is from this machine's floor, and whether the first-event target is within
 * the machine's reach at all: the target is wall-clock time, and on a slower machine the bare
 * server alone can take longer than it allows. The ratios are what carries over between machines.
 */
export function reachSection(bare: BareFigures, layouts: readonly LayoutReach[], targetMs: number): string[] {
  const floor = bare.warm.firstEventMs.p99;
  const verdict =
    floor > targetMs
      ? `**The floor alone is above the target (${floor} ms > ${targetMs} ms): no service can meet the ` +
        'first-event target on this machine.** The ratios below are what compares with a run on another machine.'
      : `The floor leaves the service ${targetMs - floor} ms within the target (${targetMs} ms).`;
  return [
    '## What this machine allows',
    '',
    `The first-event target is wall-clock time. On this machine the bare server's first-event p99 is ${floor} ms. ${verdict}`,
    '',
    '| layout | service: first event p99 ms | front door alone p99 ms | floor p99 ms | service ÷ floor | front door ÷ floor | service − front door ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...layouts.map((l) => {
      const s = l.service.firstEventMs.p99;
      const d = l.frontDoor?.firstEventMs.p99;
      return `| ${l.layout} | ${s} | ${d ?? 'n/a'} | ${floor} | ${ratio(s, floor)} | ${d === undefined ? 'n/a' : ratio(d, floor)} | ${d === undefined ? 'n/a' : Math.round(s - d)} |`;
    }),
    '',
  ];
}
