import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * MCP cancellation (actors/tools/router/mcp-cancellation.ts): `notifications/cancelled` and a client
 * that disconnects stop the `tools/call` they name, through the kernel's cancel and the tool's
 * signal (the same signal the panic button aborts). `work.inFlight()` tells whether the tool still runs.
 */

let h: RouterHarness;

beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const rpc = (token: string, body: unknown) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send(body as object);

const spin = (id: string | number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'proc_execute',
    arguments: { language: 'javascript', code: 'while (true) {}', timeout: 30_000 },
  },
});

describe('MCP cancellation', () => {
  it('notifications/cancelled stops the running tools/call it names', async () => {
    const { token } = await h.agent();
    const pending = rpc(token, spin('long-1')).then((r) => r);
    await eventually(() => h.runtime.work.inFlight() > 0);

    const note = await rpc(token, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'long-1', reason: 'user stopped it' },
    });
    expect(note.status).toBe(202);

    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.content[0].text).toMatch(/^UNAVAILABLE: Cancelled by the caller/);
    // The sandbox stopped the loop: nothing of the call runs any more.
    await eventually(() => h.runtime.work.inFlight() === 0);
  });

  it("another caller's cancellation of the same request id does not reach the call", async () => {
    const { token } = await h.agent();
    const other = await h.agent();
    const pending = rpc(token, spin(7)).then((r) => r);
    await eventually(() => h.runtime.work.inFlight() > 0);
    const stranger = await rpc(other.token, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7 },
    });
    expect(stranger.status).toBe(202);
    expect(h.runtime.work.inFlight()).toBe(1);
    // The owner's own cancellation (a number id, as sent) does.
    await rpc(token, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect((await pending).body.result.content[0].text).toMatch(/Cancelled by the caller/);
    await eventually(() => h.runtime.work.inFlight() === 0);
  });

  it('a client that disconnects stops its call', async () => {
    const { token } = await h.agent();
    const client = new AbortController();
    const pending = fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(spin(1)),
      signal: client.signal,
    }).catch((err: unknown) => err);
    await eventually(() => h.runtime.work.inFlight() > 0);
    client.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await eventually(() => h.runtime.work.inFlight() === 0);
  });
});

describe('Cancellation in the spec dialect', () => {
  it('a {tool, input} client that disconnects stops its call; the route record says cancelled', async () => {
    const { token } = await h.agent();
    const client = new AbortController();
    const pending = fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tool: 'proc_execute', input: spin(0).params.arguments }),
      signal: client.signal,
    }).catch((err: unknown) => err);
    await eventually(() => h.runtime.work.inFlight() > 0);
    client.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await eventually(() => h.runtime.work.inFlight() === 0);
    const routes = await eventually(async () => {
      const res = await h.http().get('/api/ffp/routes').set('Authorization', `Bearer ${token}`);
      return res.body.routes.length > 0
        ? (res.body.routes as Array<{ primitive: string; status: string }>)
        : undefined;
    });
    expect(routes[0]).toMatchObject({ primitive: 'proc_execute', status: 'cancelled' });
    // A call that ran to its end is still `ok`.
    expect((await h.call(token, 'mem_get', { key: 'k' })).status).toBe(200);
    await eventually(async () => {
      const res = await h.http().get('/api/ffp/routes').set('Authorization', `Bearer ${token}`);
      return res.body.routes.some(
        (r: { primitive: string; status: string }) => r.primitive === 'mem_get' && r.status === 'ok',
      );
    });
  });
});

describe('MCP progress', () => {
  it('a tools/call with a progressToken gets start and end progress on an event stream (SDK client)', async () => {
    const { token } = await h.agent();
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'progress-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: 'proc_execute', arguments: { language: 'javascript', code: 'console.log(6 * 7)' } },
        undefined,
        { onprogress: (p) => seen.push(p) },
      );
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.structuredContent)).toContain('42');
      expect(seen).toEqual([
        { progress: 0, total: 1, message: 'proc_execute: started' },
        { progress: 1, total: 1, message: 'proc_execute: finished' },
      ]);
      // Without a progressToken the answer stays application/json.
      const plain = await client.callTool({ name: 'mem_get', arguments: { key: 'k' } });
      expect(plain.isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('on the wire: text/event-stream with the notifications, then the response', async () => {
    const { token } = await h.agent();
    const res = await rpc(token, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'mem_get', arguments: { key: 'k' }, _meta: { progressToken: 'p-1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = res.text
      .trim()
      .split('\n\n')
      .map((e) =>
        JSON.parse(
          e
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
        ),
      );
    expect(events).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p-1', progress: 0, total: 1, message: 'mem_get: started' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p-1', progress: 1, total: 1, message: 'mem_get: finished' },
      },
      { jsonrpc: '2.0', id: 9, result: expect.objectContaining({ isError: false }) },
    ]);
    // A client that takes only JSON gets JSON, progressToken or not.
    const json = await h
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json')
      .send({
        jsonrpc: '2.0',
        id: 10,
        method: 'tools/call',
        params: { name: 'mem_get', arguments: { key: 'k' }, _meta: { progressToken: 1 } },
      });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body.id).toBe(10);
  });
});
