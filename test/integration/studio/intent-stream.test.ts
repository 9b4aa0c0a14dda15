import { sseEvents, type SseEvent } from '../../support/sse-events';
import { bearer, startExecHarness, type ExecHarness } from '../executions/support/harness';

jest.setTimeout(60_000);

/** Reads an SSE response over a real socket until it ends (or `stopAfter` says so, then aborts). */
async function readSse(
  url: string,
  init: RequestInit,
  stopAfter?: (events: SseEvent[]) => boolean,
): Promise<{ status: number; contentType: string | null; events: SseEvent[] }> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  const events: SseEvent[] = [];
  if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, contentType: res.headers.get('content-type'), events };
  }
  try {
    for await (const event of sseEvents(res.body)) {
      events.push(event);
      if (stopAfter?.(events)) {
        controller.abort();
        return { status: res.status, contentType: res.headers.get('content-type'), events };
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return { status: res.status, contentType: res.headers.get('content-type'), events };
}

describe('POST /api/studio/intent/stream and GET /api/executions/{id}/events', () => {
  let h: ExecHarness;
  let token: string;
  let url: string;

  const intent = (body: Record<string, unknown>, stopAfter?: (events: SseEvent[]) => boolean, t = token) =>
    readSse(
      `${url}/api/studio/intent/stream`,
      {
        method: 'POST',
        headers: { ...bearer(t), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
      },
      stopAfter,
    );
  const events = (id: string, headers: Record<string, string> = {}) =>
    readSse(`${url}/api/executions/${id}/events`, { headers: { ...bearer(token), ...headers } });

  beforeAll(async () => {
    h = await startExecHarness();
    url = h.runtime.http!.url;
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('streams execution, reply and done for a read-only intent, and persists the execution', async () => {
    const res = await intent({ message: 'list tools', sessionId: 'ses-1' });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    const [execution, reply, done] = res.events;
    expect(execution.data.execution).toMatchObject({
      type: 'CHAT_EXECUTION',
      sourceType: 'super_agent',
      title: 'list tools',
      sessionId: 'ses-1',
    });
    const id = (execution.data.execution as { id: string }).id;
    expect(reply.data).toMatchObject({ type: 'reply', executionId: id, final: true, command: 'tools list' });
    const names = (reply.data.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain('platform.mem_get');
    expect(done.data).toEqual({ type: 'done', executionId: id, status: 'COMPLETED' });

    const stored = await h.get(token, id);
    expect(stored.execution.status).toBe('COMPLETED');
    const lines = stored.logs.map((l) => l.message);
    expect(lines).toEqual(expect.arrayContaining(['Intent received', 'Planned: tools list', 'Reply ready']));
  });

  it('answers help text for anything else, with the title cut at 180 characters', async () => {
    const message = `hello ${'x'.repeat(300)}`;
    const res = await intent({ message, sessionId: 'ses-1' });
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    expect((res.events[0].data.execution as { title: string }).title).toBe(message.slice(0, 180));
    expect(res.events[1].data.text).toMatch(/list tools/);
    expect(res.events[2].data.status).toBe('COMPLETED');
  });

  it('pauses a mutating proposal for approval, with a confirmToken the Studio command accepts', async () => {
    const res = await intent({ message: 'run mem_set {"key": "intent:k", "value": 5}', sessionId: 'ses-2' });
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    const reply = res.events[1].data as {
      executionId: string;
      approval: { command: string; confirmToken: string; expiresIn: number };
    };
    expect(reply.approval).toMatchObject({
      command: 'tool run mem_set --json {"key":"intent:k","value":5}',
      expiresIn: 300,
    });
    expect(res.events[2].data.status).toBe('PAUSED');

    const stored = await h.get(token, reply.executionId);
    expect(stored.execution.status).toBe('PAUSED');
    expect(stored.logs.map((l) => l.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Waiting for approval/)]),
    );
    const notes = await h.http().get('/api/notifications?type=approval').set(bearer(token)).expect(200);
    expect(
      notes.body.notifications.some((n: { executionId: string }) => n.executionId === reply.executionId),
    ).toBe(true);

    // Nothing ran yet; the confirmToken runs it through the Studio command.
    const run = await h
      .http()
      .post('/api/studio/command')
      .set(bearer(token))
      .send({ command: reply.approval.command, confirmToken: reply.approval.confirmToken })
      .expect(200);
    expect(run.body).toMatchObject({ kind: 'result', execution: { status: 'COMPLETED' } });
    const check = await h
      .http()
      .post('/api/studio/command')
      .set(bearer(token))
      .send({ command: 'tool run mem_get --json {"key":"intent:k"}' })
      .expect(200);
    expect(check.body.result).toMatchObject({ found: true, value: 5 });
  });

  it('streams error then done when the intent fails', async () => {
    const res = await intent({ message: 'run no_such_tool {}', sessionId: 'ses-3' });
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'error', 'done']);
    expect(res.events[1].data).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
    expect(res.events[2].data.status).toBe('FAILED');
  });

  it('keeps running when the client leaves', async () => {
    const res = await intent({ message: 'status', sessionId: 'ses-4' }, (evs) => evs.length === 1);
    expect(res.events.map((e) => e.event)).toEqual(['execution']);
    const id = (res.events[0].data.execution as { id: string }).id;
    await h.waitFor(token, id, (e) => e.status === 'COMPLETED');
  });

  it('refuses a malformed body (400) and a missing credential (401) before streaming', async () => {
    const bad = await intent({ message: 'list tools' });
    expect(bad.status).toBe(400);
    const anon = await fetch(`${url}/api/studio/intent/stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'x', sessionId: 's' }),
    });
    expect(anon.status).toBe(401);
  });

  it('replays an execution events from the persisted log, for several subscribers and with Last-Event-ID', async () => {
    const res = await intent({ message: 'list connectors', sessionId: 'ses-5' });
    const id = (res.events[0].data.execution as { id: string }).id;
    const [a, b] = await Promise.all([events(id), events(id)]);
    for (const sub of [a, b]) {
      expect(sub.status).toBe(200);
      const names = sub.events.map((e) => e.event);
      expect(names[0]).toBe('log');
      expect(names).toContain('execution');
      expect(names[names.length - 1]).toBe('done');
      const seqs = sub.events
        .filter((e) => e.event === 'log')
        .map((e) => (e.data.log as { seq: number }).seq);
      expect(seqs[0]).toBe(1);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(sub.events.filter((e) => e.event === 'log').map((e) => e.id)).toEqual(seqs.map(String));
    }
    const total = a.events.filter((e) => e.event === 'log').length;
    expect(total).toBeGreaterThan(2);
    const resumed = await events(id, { 'Last-Event-ID': '2' });
    const resumedSeqs = resumed.events
      .filter((e) => e.event === 'log')
      .map((e) => (e.data.log as { seq: number }).seq);
    expect(resumedSeqs[0]).toBe(3);
    expect(resumedSeqs.length).toBe(total - 2);
    expect(resumed.events[resumed.events.length - 1].event).toBe('done');

    // Another account's execution: 404.
    const stranger = await h.account();
    const foreign = await h.http().get(`/api/executions/${id}/events`).set(bearer(stranger));
    expect(foreign.status).toBe(404);
  });
});
