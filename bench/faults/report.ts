import { ackedWritesIn, appliedTwiceIn, lostIn, type ClassFigures, type PhaseFigures } from './figures';
import type { DeadLetterReport, PoisonPlan } from './poison';

export interface Check {
  name: string;
  value: string;
  pass: boolean;
}

/** How long after its return a dependency must serve again (the issue's target). */
export const RECOVERY_TARGET_MS = 1000;

/** The targets of issue 16, checked on one run's figures. */
export function checksOf(
  phases: readonly PhaseFigures[],
  deadLetters: DeadLetterReport,
  poison: { plan: PoisonPlan; neighboursRan: number } | undefined,
): Check[] {
  const sum = (f: (p: PhaseFigures) => number) => phases.reduce((n, p) => n + f(p), 0);
  const lost = sum((p) => lostIn(p.readBack));
  const twice = sum((p) => appliedTwiceIn(p.readBack));
  const keyedTwice = sum((p) => p.readBack.counters.keyedAppliedTwice);
  const retriedAcked = sum((p) => p.readBack.counters.retriedAcked);
  const refusedRan = sum((p) => p.readBack.counters.ranAlthoughRefused);
  const checks: Check[] = [
    {
      name: '0 acknowledged writes lost',
      value: `${lost} of ${sum((p) => ackedWritesIn(p.readBack))}`,
      pass: lost === 0,
    },
    { name: '0 acknowledged writes applied twice', value: String(twice), pass: twice === 0 },
    {
      name: '0 calls retried with an Idempotency-Key applied twice',
      value: `${keyedTwice} (${retriedAcked} keyed calls acknowledged after a retry)`,
      pass: keyedTwice === 0,
    },
    {
      name: "0 calls answered 'did not run' (mayHaveRun: false, 4xx) found applied",
      value: String(refusedRan),
      pass: refusedRan === 0,
    },
  ];
  for (const p of phases) {
    if (p.returnAt === undefined) continue;
    const affected = Object.entries(p.byClass).filter(
      ([, c]) => c.firstSuccessAfterReturnMs !== undefined,
    ) as Array<[string, ClassFigures]>;
    const worst = affected.reduce<number | null>(
      (w, [, c]) =>
        w === null || c.firstSuccessAfterReturnMs === null ? null : Math.max(w, c.firstSuccessAfterReturnMs!),
      0,
    );
    checks.push({
      name: `${p.name}: first success ≤ ${RECOVERY_TARGET_MS} ms after the return, for every route that failed`,
      value:
        affected.length === 0
          ? 'no route failed'
          : affected.map(([cls, c]) => `${cls} ${c.firstSuccessAfterReturnMs ?? 'never'}`).join(', '),
      pass: worst !== null && worst <= RECOVERY_TARGET_MS,
    });
    const later = affected.reduce((n, [, c]) => n + (c.errorsLaterThan1s ?? 0), 0);
    checks.push({
      name: `${p.name}: no error for requests sent later than 1 s after the return`,
      value: String(later),
      pass: later === 0,
    });
  }
  const poisonPhase = phases.find((p) => p.name === 'poison');
  if (poisonPhase && poison) {
    const errors = poisonPhase.requests - poisonPhase.acknowledged;
    const missing = deadLetters.poison.filter((p) => !p.deadLettered || p.reason !== p.expectedReason);
    checks.push({
      name: 'poison costs no other command: no error in the phase, its batch neighbours ran, each poison dead-lettered with its reason',
      value: `${errors} errors; neighbours ${poison.neighboursRan}/${poison.plan.neighbours}; dead-lettered ${deadLetters.poison.length - missing.length}/${deadLetters.poison.length}`,
      pass: errors === 0 && poison.neighboursRan === poison.plan.neighbours && missing.length === 0,
    });
  }
  checks.push({
    name: 'no command of the load dead-lettered',
    value: String(deadLetters.others.length),
    pass: deadLetters.others.length === 0,
  });
  return checks;
}

interface Report {
  date: string;
  nproc: number;
  node: string;
  loadAverage: { before: number[]; after: number[] };
  settings: {
    clients: { mcp: number; files: number; memory: number };
    cutSeconds: number;
    leadSeconds: number;
    tailSeconds: number;
    keyedRetrySeconds: number;
    maxMessageBytes: number;
  };
  phases: PhaseFigures[];
  deadLetters: DeadLetterReport;
  poisonNeighbours?: { expected: number; ran: number };
  findings: string[];
  checks: Check[];
  cleaned: string;
  durationSeconds: number;
}

const ms = (v: number | null | undefined) => (v === undefined ? '—' : v === null ? 'never' : `${v}`);
const statuses = (p: PhaseFigures) =>
  Object.entries(p.errorsByStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s} × ${n}`)
    .join(', ') || 'none';

/** bench/results/faults.md */
export function markdown(r: Report): string {
  const la = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
  // Quiet means the 1-minute load below 2 when the run starts: the 5/15-minute figures still carry
  // work that ended before it, and the load after is the benchmark's own.
  const high = r.loadAverage.before[0]! > 2;
  const s = r.settings;
  const phaseRows = r.phases
    .map((p) => {
      const b = p.readBack;
      return `| ${p.name} | ${p.requests} | ${p.acknowledged} | ${lostIn(b)} | ${appliedTwiceIn(b)} | ${b.counters.keyedAppliedTwice} / ${b.counters.retriedAcked} | ${statuses(p)} |`;
    })
    .join('\n');
  const classRows = r.phases
    .flatMap((p) =>
      (Object.entries(p.byClass) as Array<[string, ClassFigures]>).map(
        ([cls, c]) =>
          `| ${p.name} | ${cls} | ${c.requests} | ${c.errors} | ${ms(c.firstSuccessAfterReturnMs)} | ${c.errorsLaterThan1s ?? '—'} | ${c.longestGapMs} | ${c.p50Ms} / ${c.p99Ms} / ${c.maxMs} |`,
      ),
    )
    .join('\n');
  const readRows = r.phases
    .map((p) => {
      const c = p.readBack.counters;
      return `| ${p.name} | ${c.acked} (${c.keys} counters) | ${c.lost} | ${c.appliedTwice} | ${c.unknownApplied} / ${c.unknownNotApplied} | ${c.ranAlthoughRefused} | ${p.readBack.sets.acked} / ${p.readBack.sets.lost} | ${p.readBack.files.acked} / ${p.readBack.files.lost} / ${p.readBack.files.appliedTwice} | ${p.readBack.memory.acked} / ${p.readBack.memory.lost} / ${p.readBack.memory.appliedTwice} |`;
    })
    .join('\n');
  const timeline = r.phases
    .map((p) => {
      const at = (t?: number) => (t === undefined ? '—' : `+${((t - p.startedAt) / 1000).toFixed(2)} s`);
      return `- **${p.name}** (${p.title}): fault ${at(p.faultAt)}, back ${at(p.returnAt)}, phase ${((p.endedAt - p.startedAt) / 1000).toFixed(1)} s${p.notes.length ? `. ${p.notes.join('; ')}` : ''}.`;
    })
    .join('\n');
  const poisonRows = r.deadLetters.poison
    .map(
      (p) =>
        `| ${p.name} | ${p.deadLettered ? 'yes' : '**no**'} | ${p.reason ?? ''} | ${(p.detail ?? '').replace(/\|/g, '\\|')} |`,
    )
    .join('\n');
  return `# bench:faults — faults under load

Run \`npm run bench:faults\` (bench/faults/run.ts; docs/faults.md). ${r.date}, ${r.nproc} cores, Node ${r.node},
load average (1/5/15 min) ${la(r.loadAverage.before)} before, ${la(r.loadAverage.after)} after${high ? ' — **high (> 2): the machine was shared with other work; latencies and recovery times are pessimistic**' : ''}. The run took ${r.durationSeconds} s.

An api node and two workers over RabbitMQ, Redis, and one embedded document server
(\`store:serve\`, journaled) shared by the three; the nodes reach RabbitMQ and Redis through TCP
proxies of the bench, which cut them. ${s.clients.mcp + s.clients.files + s.clients.memory} closed-loop clients on 127.0.0.1: ${s.clients.mcp} on \`POST /mcp\`
(one agent each: \`mem_incr\`, \`mem_set\`, \`mem_incr\` with an \`Idempotency-Key\`, \`mem_incr\`, in
turn; a keyed call that fails is sent again with its key for up to ${s.keyedRetrySeconds} s), ${s.clients.files} writing new files
(\`POST /api/files\`), ${s.clients.memory} new memory entries (\`POST /api/memory\`) of one operator account. Each
phase: ${s.leadSeconds} s of load, the fault, ${s.tailSeconds} s of load after the dependency is back; a cut lasts ${s.cutSeconds} s.
Requests count in the phase they were sent in. At the end every acknowledged write is read back:
counters and \`mem_set\` keys from Redis, files and memory entries through \`GET /api/files\` and
\`GET /api/memory\`.

## Timeline

${timeline}

## Per phase

"keyed twice / retried" is the increments of keyed counters found applied twice, and the keyed
calls acknowledged after at least one failed attempt (sent again with the same key).

| phase | requests | acknowledged | lost | applied twice | keyed twice / retried | errors by status |
|---|---:|---:|---:|---:|---:|---|
${phaseRows}

## Recovery, per route

"first success" is the time from the dependency's return (the proxy listening again, the
document server ready, the kill of a worker) to the end of the first successful request of that
route, for the routes that failed in the phase (— : none failed). "later errors": failed requests
sent more than 1 s after the return. "longest gap": the longest time in the phase without a
success on that route. Latencies of the successful requests, in ms.

| phase | route | requests | errors | first success ms | later errors | longest gap ms | p50 / p99 / max ms |
|---|---|---:|---:|---:|---:|---:|---:|
${classRows}

## Read back

A client uses a counter until a call on it fails (or the phase changes): the counter must then
read the acknowledged increments, plus at most the one call of unknown outcome. "unknown:
applied / not" is what those calls (no answer, or a 503/504 without \`mayHaveRun: false\`) had
done; "refused, ran" counts calls answered as not run (\`mayHaveRun: false\`, or a 4xx) that were
found applied.

| phase | increments acknowledged | lost | applied twice | unknown: applied / not | refused, ran | mem_set acked / lost | files acked / lost / twice | memory acked / lost / twice |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${readRows}
${r.findings.length ? `\nFirst findings:\n\n${r.findings.map((f) => `- ${f}`).join('\n')}\n` : ''}
## Poison

${
  r.deadLetters.poison.length
    ? `Put on \`<prefix>.actor.agent\` while loaded; found in its dead-letter queue:

| message | dead-lettered | reason | detail |
|---|---|---|---|
${poisonRows}

The good commands of the batch (fire-and-forget \`mem_incr\` of one key) ran ${r.poisonNeighbours?.ran ?? 0} of ${r.poisonNeighbours?.expected ?? 0} times.`
    : 'Not run.'
}

Other dead letters (commands of the load): ${r.deadLetters.others.length === 0 ? 'none' : r.deadLetters.others.map((o) => `${o.queue} ${o.reason ?? ''} ${o.detail ?? ''}`).join('; ')}.

## Targets

| check | value | result |
|---|---|---|
${r.checks.map((c) => `| ${c.name} | ${c.value} | ${c.pass ? 'pass' : '**fail**'} |`).join('\n')}

Cleaned up: ${r.cleaned}.
`;
}
