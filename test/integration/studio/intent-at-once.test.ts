import { snapshotWorkCounts } from '../../../src/kernel';
import { waitFor } from '../../support/async';
import { bearer, startExecHarness, type ExecHarness } from '../executions/support/harness';

jest.setTimeout(60_000);

/** The events of one intent stream (`event` names and parsed `data`), read to its end. */
async function intent(url: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/api/studio/intent/stream`, {
    method: 'POST',
    headers: { ...bearer(token), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
      data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as Record<string, unknown>,
    }));
  return { status: res.status, events };
}

const turnsOf = (type: string) => snapshotWorkCounts().turnsByType[type] ?? 0;

describe('intent streams answered at once (no worker hop)', () => {
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

  it('answers `status` without the execution actor and stores what a run through it stores', async () => {
    const before = turnsOf('execution.createAndFollow');
    const res = await intent(url, token, { message: 'status', sessionId: 'ses-at-once' });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    expect(turnsOf('execution.createAndFollow')).toBe(before);
    const id = (res.events[0]!.data.execution as { id: string }).id;
    expect(res.events[1]!.data).toMatchObject({ executionId: id, final: true, command: 'status' });
    expect(res.events[2]!.data).toEqual({ type: 'done', executionId: id, status: 'COMPLETED' });

    // Stored by the time `done` is sent: the record, its log lines and the notification.
    const stored = await h.get(token, id);
    expect(stored.execution).toMatchObject({
      status: 'COMPLETED',
      type: 'CHAT_EXECUTION',
      sourceType: 'super_agent',
      sessionId: 'ses-at-once',
      progress: { completedSteps: 1, totalSteps: 1 },
      stepInFlight: null,
    });
    expect(stored.execution.steps).toMatchObject([
      { index: 0, name: 'plan', status: 'COMPLETED', attempts: 1 },
    ]);
    expect(stored.logs.map((l) => [l.seq, l.message])).toEqual([
      [1, 'Created (CHAT_EXECUTION, super_agent)'],
      [2, 'Step 1 "plan" started'],
      [3, 'Intent received'],
      [4, 'Planned: status'],
      [5, 'Reply ready'],
      [6, 'Step 1 "plan" completed'],
      [7, 'Completed (1 steps)'],
    ]);
    const notes = await h.http().get('/api/notifications?type=task').set(bearer(token)).expect(200);
    expect(
      notes.body.notifications.filter((n: { executionId: string }) => n.executionId === id),
    ).toHaveLength(1);
  });

  it('stores the same log lines as the ordinary run of a tool-calling intent (through the actor)', async () => {
    const before = turnsOf('execution.createAndFollow');
    const res = await intent(url, token, {
      message: 'run mem_get {"key": "nothing"}',
      sessionId: 'ses-tool',
    });
    expect(res.events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    expect(turnsOf('execution.createAndFollow')).toBe(before + 1);
    const id = (res.events[0]!.data.execution as { id: string }).id;
    const stored = await h.get(token, id);
    const messages = stored.logs.map((l) => l.message.replace(/^Planned: .*/, 'Planned: …'));
    expect(messages).toEqual([
      'Created (CHAT_EXECUTION, super_agent)',
      'Step 1 "plan" started',
      'Intent received',
      'Planned: …',
      'Reply ready',
      'Step 1 "plan" completed',
      'Completed (1 steps)',
    ]);
  });

  it('has stored the record by the time the first event arrives, and ends it though the client left', async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/api/studio/intent/stream`, {
      method: 'POST',
      headers: { ...bearer(token), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'list connectors', sessionId: 'ses-ack' }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort(); // the client leaves at its first event
    expect(text).toMatch(/^event: execution$/m);
    const id = /"id":"(exe_[A-Za-z0-9]+)"/.exec(text)![1]!;
    // Read at once, no waiting: the record is there (an acknowledged stream is never lost).
    const stored = await h.get(token, id);
    expect(['RUNNING', 'COMPLETED']).toContain(stored.execution.status);
    // It runs to its end without the client: record, seven lines, notification.
    await h.waitFor(token, id, (e) => e.status === 'COMPLETED');
    expect((await h.get(token, id)).logs).toHaveLength(7);
    // The notification is written right after the end (as for any execution's end).
    await waitFor(async () => {
      const notes = await h.http().get('/api/notifications?type=task').set(bearer(token)).expect(200);
      return notes.body.notifications.some((n: { executionId: string }) => n.executionId === id);
    }, 'its task notification');
  });

  it('refuses before any event in a workspace in panic lockdown (403), storing nothing', async () => {
    const panic = await h.http().post('/api/panic').set(bearer(token)).send({}).expect(200);
    try {
      const res = await intent(url, token, { message: 'status', sessionId: 'ses-locked' });
      expect(res.status).toBe(403);
      const list = await h.http().get('/api/executions?sessionId=ses-locked').set(bearer(token)).expect(200);
      expect(list.body.executions).toHaveLength(0);
    } finally {
      await h
        .http()
        .delete('/api/panic')
        .set(bearer(token))
        .send({ workspaceId: panic.body.workspaceId })
        .expect(200);
    }
  });

  it('keeps every one of many concurrent streams (coalesced writes), each with its own record', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        intent(url, token, { message: 'list tools', sessionId: `ses-many-${i}` }),
      ),
    );
    const ids = results.map((r) => (r.events[0]!.data.execution as { id: string }).id);
    expect(new Set(ids).size).toBe(40);
    expect(results.every((r) => r.events.at(-1)?.data.status === 'COMPLETED')).toBe(true);
    for (const id of ids.slice(0, 5)) {
      const stored = await h.get(token, id);
      expect(stored.execution.status).toBe('COMPLETED');
      expect(stored.logs).toHaveLength(7);
    }
    const list = await h
      .http()
      .get('/api/executions?title=list%20tools&limit=200')
      .set(bearer(token))
      .expect(200);
    expect(list.body.executions.length).toBeGreaterThanOrEqual(40);
  });
});
