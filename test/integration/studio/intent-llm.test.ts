import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, startExecHarness, type ExecHarness } from '../executions/support/harness';

jest.setTimeout(60_000);

/**
 * A fake OpenAI-compatible model: streams "Hello from the model" in pieces (a few ms apart), or
 * fails on demand.
 */
function fakeModel() {
  const requests: Array<{ path: string; auth?: string; body: Record<string, unknown> }> = [];
  let fail = false;
  let gapMs = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) });
      if (fail) {
        res.writeHead(500).end('{"error":"boom"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = ['Hello', ' from', ' the model'];
      void (async () => {
        for (const p of pieces) {
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: p } }] })}\n\n`);
          if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        }
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  return {
    requests,
    setFail: (v: boolean) => (fail = v),
    setGap: (ms: number) => (gapMs = ms),
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function sse(url: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(token), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.includes('data: '))
    .map((b) => {
      const event = /^event: (.*)$/m.exec(b)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(b)![1]) as Record<string, unknown>;
      return { event, data };
    });
}

describe('intent stream with a model (LLM_BASE_URL)', () => {
  const model = fakeModel();
  let h: ExecHarness;
  let token: string;
  let url: string;

  beforeAll(async () => {
    const port = await model.listen();
    h = await startExecHarness({
      LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
      LLM_MODEL: 'test-model',
      LLM_API_KEY: 'test-key-123',
    });
    url = `${h.runtime.http!.url}/api/studio/intent/stream`;
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
    await model.close();
  });

  it('answers free text with the model, its pieces first (final: false), then the final reply', async () => {
    model.setGap(30);
    const events = await sse(url, token, { message: 'what can you do?', sessionId: 's1' }).finally(() =>
      model.setGap(0),
    );
    const id = (events[0].data.execution as { id: string }).id;
    expect(events.map((e) => [e.event, e.data.final])).toEqual([
      ['execution', undefined],
      ['reply', false],
      ['reply', false],
      ['reply', false],
      ['reply', true],
      ['done', undefined],
    ]);
    expect(events.slice(1, 4).map((e) => e.data)).toEqual([
      { type: 'reply', executionId: id, final: false, delta: 'Hello' },
      { type: 'reply', executionId: id, final: false, delta: ' from' },
      { type: 'reply', executionId: id, final: false, delta: ' the model' },
    ]);
    expect(events[4].data).toMatchObject({ text: 'Hello from the model', model: 'test-model', final: true });
    expect(events[5].data.status).toBe('COMPLETED');
    const last = model.requests[model.requests.length - 1];
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer test-key-123');
    expect(last.body).toMatchObject({ model: 'test-model', stream: true });
    expect((last.body.messages as Array<{ content: string }>)[1].content).toBe('what can you do?');
  });

  it('keeps commands deterministic (no model call)', async () => {
    const before = model.requests.length;
    const events = await sse(url, token, { message: 'list tools', sessionId: 's1' });
    expect(events.map((e) => e.event)).toEqual(['execution', 'reply', 'done']);
    expect(events[1].data).toMatchObject({ command: 'tools list', final: true });
    expect(model.requests.length).toBe(before);
  });

  it('streams error then done when the model fails', async () => {
    model.setFail(true);
    try {
      const events = await sse(url, token, { message: 'tell me a story', sessionId: 's1' });
      expect(events.map((e) => e.event)).toEqual(['execution', 'error', 'done']);
      expect(events[1].data).toMatchObject({ code: 'UNAVAILABLE', error: 'The model answered HTTP 500' });
      expect(events[2].data.status).toBe('FAILED');
    } finally {
      model.setFail(false);
    }
  });
});
