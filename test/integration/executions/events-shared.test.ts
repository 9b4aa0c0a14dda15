import { snapshotWorkCounts } from '../../../src/kernel';
import { bearer, sleeps, startExecHarness, type ExecHarness } from './support/harness';

jest.setTimeout(90_000);

interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/** One `GET /api/executions/{id}/events` read over a real socket: its events as they come. */
function subscribe(url: string, token: string) {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  const ended = (async () => {
    const res = await fetch(url, { headers: bearer(token), signal: controller.signal });
    if (res.status !== 200 || !res.body) throw new Error(`events: HTTP ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: Partial<SseEvent> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) event.id = line.slice(4);
            if (line.startsWith('event: ')) event.event = line.slice(7);
            if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
          }
          if (event.data === undefined) continue;
          events.push(event as SseEvent);
          waiters.splice(0).forEach((w) => w());
        }
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
