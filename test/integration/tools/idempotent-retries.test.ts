import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { startRouterHarness, type RouterHarness } from './support/router-harness';
import { replyFaults, type ReplyFaults } from './support/reply-faults';

/**
 * Idempotent retries of `POST /mcp` and the mutating `/api/*` routes on the embedded runtime
 * (docs/tool-router.md, docs/http.md "Idempotent retries"): a retry with the same key runs
 * nothing again, even when the first answer was lost.
 */
let h: RouterHarness;
let faults: ReplyFaults;

beforeAll(async () => {
  // A short deadline: a call whose reply is lost answers 504 after it.
  h = await startRouterHarness({}, { REQUEST_TIMEOUT_MS: '1500' });
  faults = replyFaults([h.runtime]);
});
afterAll(async () => {
  faults.restore();
  await h.stop();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const newKey = () => randomUUID();

/** `POST /mcp` in the spec's dialect with an idempotency key. */
const keyedCall = (token: string, key: string, tool: string, input: Record<string, unknown>) =>
  h.http().post('/mcp').set(auth(token)).set('Idempotency-Key', key).send({ tool, input });

const counterOf = async (token: string, key: string) =>
  (await h.call(token, 'mem_get', { key })).body.result as { value: unknown; found: boolean };

describe('a retried mem_incr with an Idempotency-Key', () => {
  it('after a lost reply (504, mayHaveRun): the retry gets the first result and the counter moved once', async () => {
    const { token } = await h.agent();
    const key = newKey();
    faults.dropNext();
    const lost = await keyedCall(token, key, 'mem_incr', { key: 'visits', by: 1 });
    expect(faults.dropped).toBe(1);
    expect(lost.status).toBe(504);
    expect(lost.body).toMatchObject({ success: false, code: 'DEADLINE_EXCEEDED', mayHaveRun: true });
    // The work was done: the reply alone was lost.
    expect(await counterOf(token, 'visits')).toEqual({ value: 1, found: true });

    const retry = await keyedCall(token, key, 'mem_incr', { key: 'visits', by: 1 });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ success: true, result: { value: 1 } });
    const again = await keyedCall(token, key, 'mem_incr', { key: 'visits', by: 1 });
    expect(again.body).toEqual({ success: true, result: { value: 1 } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await counterOf(token, 'visits')).toEqual({ value: 1, found: true });

    // Without a key, a retry is another increment: what the key is for.
    await h.call(token, 'mem_incr', { key: 'visits', by: 1 });
    expect(await counterOf(token, 'visits')).toEqual({ value: 2, found: true });
  }, 30_000);

  it('after the connection dropped while it ran: the retry gets the kept answer', async () => {
    const { token } = await h.agent();
    const key = newKey();
    const held = faults.holdNext();
    const body = JSON.stringify({ tool: 'mem_incr', input: { key: 'jobs', by: 3 } });
    const lost = http.request(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        ...auth(token),
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'Idempotency-Key': key,
      },
    });
    lost.on('error', () => undefined);
    lost.end(body);
    await held; // the increment is done, its reply on its way
    lost.destroy();
    faults.release();

    const retry = await keyedCall(token, key, 'mem_incr', { key: 'jobs', by: 3 });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ success: true, result: { value: 3 } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await counterOf(token, 'jobs')).toEqual({ value: 3, found: true });
  });

  it('concurrent duplicates run once and all get the same result', async () => {
    const { token } = await h.agent();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => keyedCall(token, key, 'mem_incr', { key: 'burst', by: 2 })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toEqual({ success: true, result: { value: 2 } });
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await counterOf(token, 'burst')).toEqual({ value: 2, found: true });
  });

  it('the same key with another input is 409 IDEMPOTENCY_KEY_REUSED, and runs nothing', async () => {
    const { token } = await h.agent();
    const key = newKey();
    await keyedCall(token, key, 'mem_incr', { key: 'n', by: 1 });
    const other = await keyedCall(token, key, 'mem_incr', { key: 'n', by: 5 });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      success: false,
      code: 'IDEMPOTENCY_KEY_REUSED',
      error: expect.stringContaining('another request'),
    });
    const otherTool = await keyedCall(token, key, 'mem_set', { key: 'n', value: 0 });
    expect(otherTool.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await counterOf(token, 'n')).toEqual({ value: 1, found: true });
  });

  it('keys are per caller: another agent with the same key runs its own call and never sees the first', async () => {
    const a = await h.agent();
    const b = await h.agent();
    const key = newKey();
    expect((await keyedCall(a.token, key, 'mem_incr', { key: 'mine', by: 5 })).body.result).toEqual({
      value: 5,
    });
    const fromB = await keyedCall(b.token, key, 'mem_incr', { key: 'mine', by: 7 });
    expect(fromB.status).toBe(200);
    expect(fromB.body.result).toEqual({ value: 7 });
    expect(fromB.headers['idempotent-replayed']).toBeUndefined();
    const sameAsA = await keyedCall(b.token, key, 'mem_incr', { key: 'mine', by: 5 });
    expect(sameAsA.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await counterOf(a.token, 'mine')).toEqual({ value: 5, found: true });
    expect(await counterOf(b.token, 'mine')).toEqual({ value: 7, found: true });
  });

  it('a malformed key is 400 and runs nothing', async () => {
    const { token } = await h.agent();
    const res = await keyedCall(token, 'no spaces please', 'mem_incr', { key: 'bad' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(await counterOf(token, 'bad')).toEqual({ value: null, found: false });
  });
});

describe('MCP JSON-RPC with a key', () => {
  const rpc = (token: string, message: unknown, headers: Record<string, string> = {}) =>
    h
      .http()
      .post('/mcp')
      .set(auth(token))
      .set('Accept', 'application/json, text/event-stream')
      .set('MCP-Protocol-Version', '2025-06-18')
      .set(headers)
      .send(message as object);
  const incr = (id: number, key?: string, by = 1) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'platform.mem_incr',
      arguments: { key: 'rpc', by },
      ...(key ? { _meta: { 'io.agent-runtime/idempotencyKey': key } } : {}),
    },
  });

  it('takes the key in params._meta: a retry with a new request id gets the first result, marked replayed', async () => {
    const { token } = await h.agent();
    const key = newKey();
    const first = await rpc(token, incr(1, key));
    expect(first.body.result).toMatchObject({ structuredContent: { value: 1 }, isError: false });
    expect(first.body.result._meta).toBeUndefined();
    const retry = await rpc(token, incr(2, key));
    expect(retry.body).toMatchObject({
      jsonrpc: '2.0',
      id: 2,
      result: {
        structuredContent: { value: 1 },
        isError: false,
        _meta: { 'io.agent-runtime/replayed': true },
      },
    });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    // The spec's dialect with the same key and call is the same call.
    const spec = await keyedCall(token, key, 'platform.mem_incr', { key: 'rpc', by: 1 });
    expect(spec.body).toEqual({ success: true, result: { value: 1 } });
    const other = await rpc(token, incr(3, key, 9));
    expect(other.body.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^IDEMPOTENCY_KEY_REUSED: /) }],
    });
    expect(await counterOf(token, 'rpc')).toEqual({ value: 1, found: true });
  });

  it('takes the Idempotency-Key header for a single message, and refuses it on a batch', async () => {
    const { token } = await h.agent();
    const key = newKey();
    await rpc(token, incr(1), { 'Idempotency-Key': key });
    const retry = await rpc(token, incr(7), { 'Idempotency-Key': key });
    expect(retry.body.result).toMatchObject({ structuredContent: { value: 1 } });
    const conflicting = await rpc(token, incr(8, newKey()), { 'Idempotency-Key': key });
    expect(conflicting.body.result.content[0].text).toMatch(/^VALIDATION_ERROR: .*different keys/);
    const batch = await rpc(token, [incr(9), incr(10)], { 'Idempotency-Key': newKey() });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('params._meta'),
    });
    // In a batch, each call carries its own key: a repeated one runs once.
    const perCall = newKey();
    const answers = await rpc(token, [incr(11, perCall), incr(12, perCall), incr(13, newKey())]);
    expect(
      answers.body.map((a: { result: { structuredContent: unknown } }) => a.result.structuredContent),
    ).toEqual([{ value: 2 }, { value: 2 }, { value: 3 }]);
    expect(await counterOf(token, 'rpc')).toEqual({ value: 3, found: true });
  });

  it('says in a tool error when the call may have run', async () => {
    const { token } = await h.agent();
    faults.dropNext();
    const res = await rpc(token, incr(1, newKey()));
    expect(res.body.result).toMatchObject({
      isError: true,
      _meta: { 'io.agent-runtime/mayHaveRun': true },
      content: [{ type: 'text', text: expect.stringContaining('may have run') }],
    });
  }, 30_000);
});

describe('a mutating /api route with a key', () => {
  it('POST /api/memory: a retry replays the first write; another body under the key is 409', async () => {
    const operator = await h.account();
    const key = newKey();
    const write = (content: unknown) =>
      h
        .http()
        .post('/api/memory')
        .set(auth(operator.token))
        .set('Idempotency-Key', key)
        .send({ key: 'plan', content });
    const first = await write('ship it');
    expect(first.status).toBe(201);
    expect(first.body.entry).toMatchObject({ key: 'plan', content: 'ship it', version: 1 });
    const retry = await write('ship it');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const other = await write('scrap it');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const listed = await h.http().get('/api/memory').set(auth(operator.token));
    const plan = listed.body.entries.find((e: { key: string }) => e.key === 'plan');
    expect(plan).toMatchObject({ content: 'ship it', version: 1 });
  });

  it('POST /api/agents answers with a one-time key: not kept, a retry is told it ran', async () => {
    const operator = await h.account();
    const key = newKey();
    const create = () =>
      h
        .http()
        .post('/api/agents')
        .set(auth(operator.token))
        .set('Idempotency-Key', key)
        .send({ name: `idem agent ${key.slice(0, 8)}` });
    const first = await create();
    expect(first.status).toBe(201);
    const retry = await create();
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'IDEMPOTENCY_OUTCOME_NOT_KEPT', status: 201, reason: 'secret' });
    expect(JSON.stringify(retry.body)).not.toContain(first.body.apiKey);
    const agents = await h.http().get('/api/agents').set(auth(operator.token));
    expect(agents.body.agents.filter((a: { name: string }) => a.name === first.body.agent.name)).toHaveLength(
      1,
    );
  });
});
