import { snapshotWorkCounts } from '../../../src/kernel';
import { sseEvents, type SseEvent } from '../../support/sse-events';
import { bearer, sleeps, startExecHarness, type ExecHarness } from './support/harness';

jest.setTimeout(90_000);

/** One `GET /api/executions/{id}/events` read over a real socket: its events as they come. */
function subscribe(url: string, token: string) {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  const ended = (async () => {
    const res = await fetch(url, { headers: bearer(token), signal: controller.signal });
    if (res.status !== 200 || !res.body) throw new Error(`events: HTTP ${res.status}`);
    try {
      for await (const event of sseEvents(res.body)) {
        events.push(event);
        waiters.splice(0).forEach((w) => w());
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
    waiters.splice(0).forEach((w) => w());
    return events;
  })();
  const until = async (check: (events: SseEvent[]) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check(events)) {
      if (Date.now() > deadline)
        throw new Error(`not in time: ${JSON.stringify(events.map((e) => e.event))}`);
      await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 200))]);
    }
  };
  return { events, ended, until, leave: () => controller.abort() };
}

const logSeqs = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'log').map((e) => (e.data.log as { seq: number }).seq);

describe('GET /api/executions/{id}/events: one watch per execution on a node', () => {
  let h: ExecHarness;
  let token: string;
  let url: string;

  beforeAll(async () => {
    h = await startExecHarness();
    url = h.runtime.http!.url;
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('gives every subscriber each event once, in order, from a single execution.watch', async () => {
    const created = await h.create(token, { title: 'shared watch', start: false, steps: sleeps(3, 150) });
    const paused = await h.act(token, created.id, 'pause');
    expect(paused.status).toBe(200);
    const watchesBefore = snapshotWorkCounts().turnsByType['execution.watch'] ?? 0;

    const path = `${url}/api/executions/${created.id}/events`;
    const subs = [subscribe(path, token), subscribe(path, token), subscribe(path, token)];
    const leaving = subscribe(path, token);
    const hasState = (events: SseEvent[]) => events.some((e) => e.event === 'execution');
    for (const s of [...subs, leaving]) await s.until(hasState);
    // Every subscriber, the first and those that joined, starts with the execution's state.
    for (const s of [...subs, leaving]) {
      const state = s.events.find((e) => e.event === 'execution')!;
      expect((state.data.execution as { status: string }).status).toBe('PAUSED');
    }
    // One of them leaving ends its stream only.
    leaving.leave();
    await leaving.ended;

    expect((await h.act(token, created.id, 'resume')).status).toBe(200);
    const all = await Promise.all(subs.map((s) => s.ended));
    expect(snapshotWorkCounts().turnsByType['execution.watch'] ?? 0).toBe(watchesBefore + 1);

    const { logs } = await h.get(token, created.id);
    const persisted = logs.map((l) => l.seq);
    for (const events of all) {
      const seqs = logSeqs(events);
      expect(seqs).toEqual(persisted);
      const last = events[events.length - 1];
      expect(last.event).toBe('done');
      expect(last.data.status).toBe('COMPLETED');
      expect(events.filter((e) => e.event === 'done')).toHaveLength(1);
      // The state at connection once: a subscriber that joined the watch gets its own, not also the opener's.
      const paused = events.filter(
        (e) => e.event === 'execution' && (e.data.execution as { status: string }).status === 'PAUSED',
      );
      expect(paused).toHaveLength(1);
    }

    // Once it is over, a new subscriber gets the log, the state and `done` at once.
    const late = subscribe(path, token);
    const events = await late.ended;
    expect(logSeqs(events)).toEqual(persisted);
    expect(events[events.length - 1].event).toBe('done');
  });
});
