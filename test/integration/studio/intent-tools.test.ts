import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_MODEL_TOOLS } from '../../../actors/studio/model-tools';
import { bearer, startExecHarness, type ExecHarness } from '../executions/support/harness';

jest.setTimeout(60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request and response bodies, checked by the assertions
type Loose = Record<string, any>;
type Body = {
  messages: Array<Loose>;
  tools?: Array<Loose>;
  [k: string]: unknown;
};
/** One streamed chunk of an OpenAI-compatible answer. */
type Chunk = { content?: string; tool_calls?: Array<Record<string, unknown>> };

/** A fake OpenAI-compatible model whose answers the test scripts: `answer(body, n)` → the chunks. */
function scriptedModel() {
  const requests: Body[] = [];
  let answer: (body: Body, n: number) => Chunk[] = () => [{ content: 'ok' }];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Body;
      requests.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const delta of answer(body, requests.length)) {
        res.write(`data: ${JSON.stringify({ choices: [{ delta }] })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
  });
  return {
    requests,
    script: (fn: typeof answer) => {
      requests.length = 0;
      answer = fn;
    },
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const call = (id: string, name: string, args: string, index = 0) => ({
  tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }],
});

describe('intent stream: the model calls tools', () => {
  const model = scriptedModel();
  let h: ExecHarness;
  let token: string;
  let url: string;

  const intent = async (message: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...bearer(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ message, sessionId: 's' }),
    });
    return (await res.text())
      .split('\n\n')
      .filter((b) => b.includes('data: '))
      .map((b) => JSON.parse(/^data: (.*)$/m.exec(b)![1]!) as Loose);
  };
  const mcp = (tool: string, input: Record<string, unknown>) =>
    h.http().post('/mcp').set(bearer(token)).send({ tool, input });

  beforeAll(async () => {
    const port = await model.listen();
    h = await startExecHarness({ LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: 'tool-model' });
    url = `${h.runtime.http!.url}/api/studio/intent/stream`;
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
    await model.close();
  });

  it('runs a read-only call through the router and feeds its result back to the model', async () => {
    expect((await mcp('mem_set', { key: 'colour', value: 'teal' })).status).toBe(200);
    model.script((body, n) => {
      if (n === 1) {
        // The arguments arrive in two pieces, as streamed models send them.
        return [
          call('c1', 'mem_get', '{"key":'),
          { tool_calls: [{ index: 0, function: { arguments: '"colour"}' } }] },
        ];
      }
      const fed = body.messages.find((m) => m.role === 'tool');
      return [{ content: 'It is ' }, { content: String(fed?.content).includes('teal') ? 'teal' : '??' }];
    });
    const events = await intent('what colour did I save?');
    expect(events.map((e) => [e.type, e.final])).toEqual([
      ['execution', undefined],
      ['reply', false],
      ['reply', false],
      ['reply', true],
      ['done', undefined],
    ]);
    expect(events[3]).toMatchObject({ text: 'It is teal', model: 'tool-model' });
    expect(events[4].status).toBe('COMPLETED');

    const [first, second] = model.requests;
    const offered = first!.tools!.map((t) => t.function.name as string);
    expect(offered).toEqual(expect.arrayContaining(['mem_get', 'mem_set']));
    expect(offered.length).toBeLessThanOrEqual(MAX_MODEL_TOOLS);
    expect(first!.tools!.find((t) => t.function.name === 'mem_get')!.function.parameters).toMatchObject({
      type: 'object',
    });
    expect(second!.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'mem_get', arguments: '{"key":"colour"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: expect.stringContaining('teal') },
    ]);
    const { logs } = await h.get(token, events[0].execution.id);
    expect(logs.map((l) => l.message)).toEqual(expect.arrayContaining(['The model called mem_get']));
  });

  it('pauses for approval on a mutating call, exactly like a planner proposal', async () => {
    model.script(() => [call('m1', 'mem_set', '{"key":"approved","value":"yes"}')]);
    const events = await intent('please remember that it is approved');
    expect(events.map((e) => e.type)).toEqual(['execution', 'reply', 'done']);
    const command = 'tool run mem_set --json {"key":"approved","value":"yes"}';
    expect(events[1]).toMatchObject({ final: true, command, approval: { command, expiresIn: 300 } });
    expect(events[2].status).toBe('PAUSED');
    expect(model.requests).toHaveLength(1);
    // Nothing ran yet; the confirmToken runs it.
    expect((await mcp('mem_get', { key: 'approved' })).body.result).toMatchObject({ found: false });
    const ran = await h
      .http()
      .post('/api/studio/command')
      .set(bearer(token))
      .send({ command, confirmToken: events[1].approval.confirmToken });
    expect(ran.body.kind).toBe('result');
    expect(JSON.stringify((await mcp('mem_get', { key: 'approved' })).body.result)).toContain('yes');
  });

  it('fails cleanly when the model keeps calling tools past the bound', async () => {
    model.script((_body, n) => [call(`r${n}`, 'mem_get', '{"key":"colour"}')]);
    const events = await intent('loop forever');
    expect(events.map((e) => e.type)).toEqual(['execution', 'error', 'done']);
    expect(events[1]).toMatchObject({ code: 'UNAVAILABLE' });
    expect(events[1].error).toMatch(/4 rounds/);
    expect(events[2].status).toBe('FAILED');
    expect(model.requests).toHaveLength(5);
  });

  it('answers malformed tool arguments with a clear error, not a crash', async () => {
    model.script(() => [call('b1', 'mem_get', '{"key": ')]);
    const events = await intent('break it');
    expect(events.map((e) => e.type)).toEqual(['execution', 'error', 'done']);
    expect(events[1]).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(events[1].error).toMatch(/mem_get with arguments that are not valid JSON/);
    expect(events[2].status).toBe('FAILED');

    // Arguments too deep for the validators are refused before any of them walks them.
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    model.script(() => [call('b3', 'mem_set', `{"key":"k","value":${deep}}`)]);
    const tooDeep = await intent('nest it');
    expect(tooDeep.map((e) => e.type)).toEqual(['execution', 'error', 'done']);
    expect(tooDeep[1]).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(tooDeep[1].error).toMatch(/arguments for mem_set are nested deeper than 64 levels/);

    model.script(() => [call('b2', 'rm_rf', '{}')]);
    const unknown = await intent('call something odd');
    expect(unknown[1]).toMatchObject({ type: 'error', code: 'VALIDATION_ERROR' });
    expect(unknown[1].error).toMatch(/not offered: "rm_rf"/);
  });
});
