import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { sseMessages } from '../../support/sse-reader';
import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * `resources/subscribe` and `unsubscribe` of the 2025 eras (actors/tools/router/
 * mcp-resource-subscriptions.ts): the subscription is kept per caller and `Mcp-Session-Id`, and its
 * updates come on the session's `GET /mcp` event stream when a subscribed file is written, renamed
 * or deleted.
 */

let h: RouterHarness;
beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const connect = async (token: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'subscribe-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
};

it('an SDK client subscribed to a file hears its writes and delete, and nothing after unsubscribing', async () => {
  const { token } = await h.agent();
  const other = await h.agent();
  const { client, transport } = await connect(token);
  expect(transport.sessionId).toMatch(/^mcps_/);
  expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: false });
  const seen: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
  try {
    await client.subscribeResource({ uri: 'file:///notes/a.txt' });
    // The GET stream is opened by the client after `initialized`: wait until a write is heard.
    await eventually(
      async () => {
        expect((await h.call(token, 'fs_write', { path: 'notes/a.txt', content: 'v' })).status).toBe(200);
        return seen.length > 0;
      },
      20_000,
      200,
    );
    seen.length = 0;
    // Another file, and the same path in another agent's space: nothing.
    expect((await h.call(token, 'fs_write', { path: 'notes/b.txt', content: 'x' })).status).toBe(200);
    expect((await h.call(other.token, 'fs_write', { path: 'notes/a.txt', content: 'x' })).status).toBe(200);
    expect((await h.call(token, 'fs_write', { path: 'notes/a.txt', content: 'again' })).status).toBe(200);
    await eventually(() => seen.length > 0, 20_000);
    expect(seen).toEqual(['file:///notes/a.txt']);
    expect((await h.call(token, 'fs_delete', { path: 'notes/a.txt' })).status).toBe(200);
    await eventually(() => seen.length >= 2, 20_000);
    expect(seen).toHaveLength(2);
    expect(new Set(seen)).toEqual(new Set(['file:///notes/a.txt']));

    await client.unsubscribeResource({ uri: 'file:///notes/a.txt' });
    await client.subscribeResource({ uri: 'file:///notes/b.txt' });
    expect((await h.call(token, 'fs_write', { path: 'notes/a.txt', content: 'quiet' })).status).toBe(200);
    expect((await h.call(token, 'fs_write', { path: 'notes/b.txt', content: 'loud' })).status).toBe(200);
    // b's update comes after a's write would have: a's absence is seen once b's arrives.
    await eventually(() => seen.length >= 3, 20_000);
    expect(seen.slice(2)).toEqual(['file:///notes/b.txt']);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

it('keeps two sessions of one token apart, over raw HTTP', async () => {
  const { token } = await h.agent();
  const post = (session: string, body: Record<string, unknown>) =>
    h
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('MCP-Protocol-Version', '2025-06-18')
      .set('Mcp-Session-Id', session)
      .send({ jsonrpc: '2.0', id: 1, ...body });
  const init = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
  const s1 = init.headers['mcp-session-id'] as string;
  expect(s1).toMatch(/^mcps_/);
  expect(init.body.result.capabilities.resources.subscribe).toBe(true);
  const sub = await post(s1, { method: 'resources/subscribe', params: { uri: 'file:///x.md' } });
  expect(sub.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  // A URI that is no file is tracked (nothing ever changes it); a missing one is -32602.
  expect(
    (await post(s1, { method: 'resources/subscribe', params: { uri: 'test://w' } })).body.result,
  ).toEqual({});
  expect((await post(s1, { method: 'resources/subscribe', params: {} })).body.error.code).toBe(-32602);
  expect((await post('bad id', { method: 'ping' })).status).toBe(400);

  const open = (session: string, signal: AbortSignal) =>
    fetch(`${h.url}/mcp`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', 'Mcp-Session-Id': session },
      signal,
    });
  const c1 = new AbortController();
  const c2 = new AbortController();
  const r1 = await open(s1, c1.signal);
  const r2 = await open('mcps_other', c2.signal);
  expect(r1.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const m1 = sseMessages(r1);
  const m2 = sseMessages(r2);
  await post('mcps_other', { method: 'resources/subscribe', params: { uri: 'file:///y.md' } });
  expect((await h.call(token, 'fs_write', { path: 'x.md', content: '1' })).status).toBe(200);
  expect((await h.call(token, 'fs_write', { path: 'y.md', content: '1' })).status).toBe(200);
  const updated = (uri: string) => ({
    jsonrpc: '2.0',
    method: 'notifications/resources/updated',
    params: { uri },
  });
  expect(await m1.next()).toEqual(updated('file:///x.md'));
  expect(await m2.next()).toEqual(updated('file:///y.md'));

  // DELETE ends the session: its subscriptions go.
  const del = await h.http().delete('/mcp').set('Authorization', `Bearer ${token}`).set('Mcp-Session-Id', s1);
  expect(del.status).toBe(204);
  expect((await h.call(token, 'fs_write', { path: 'x.md', content: '2' })).status).toBe(200);
  expect((await h.call(token, 'fs_write', { path: 'y.md', content: '2' })).status).toBe(200);
  expect(await m2.next()).toEqual(updated('file:///y.md'));
  c1.abort();
  c2.abort();
  await m1.cancel();
  await m2.cancel();

  // Without an event stream, GET is 405; the 2026 era has no resources/subscribe.
  const get = await h.http().get('/mcp').set('Authorization', `Bearer ${token}`);
  expect(get.status).toBe(405);
  const stateless = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('MCP-Protocol-Version', '2026-07-28')
    .send({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'file:///x.md' } });
  expect(stateless.body.error.code).toBe(-32601);
});
