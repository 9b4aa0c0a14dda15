import { listenForUpdates } from '../../support/mcp-listen';
import { sseMessages } from '../../support/sse-reader';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * Resource subscriptions in the 2026 form (actors/tools/router/mcp-subscriptions.ts): a
 * `subscriptions/listen` stream is told when a subscribed file of the caller's space is written
 * or deleted (the file store's broadcast), and of nothing else.
 */

let h: RouterHarness;
beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const listen = (url: string, token: string, uris: string[], signal: AbortSignal) =>
  listenForUpdates(url, `Bearer ${token}`, uris, signal);

it('notifies writes and deletes of the subscribed files only, until the client closes the stream', async () => {
  const { token } = await h.agent();
  const other = await h.agent();
  const client = new AbortController();
  const res = await listen(h.url, token, ['file:///notes/a.txt'], client.signal);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const messages = sseMessages(res);
  expect(await messages.next()).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { resourceUris: ['file:///notes/a.txt'] } },
  });
  // Another file, and the same path in another agent's space: nothing.
  expect((await h.call(token, 'fs_write', { path: 'notes/b.txt', content: 'x' })).status).toBe(200);
  expect((await h.call(other.token, 'fs_write', { path: 'notes/a.txt', content: 'x' })).status).toBe(200);
  expect((await h.call(token, 'fs_write', { path: 'notes/a.txt', content: 'hello' })).status).toBe(200);
  const updated = {
    jsonrpc: '2.0',
    method: 'notifications/resources/updated',
    params: { uri: 'file:///notes/a.txt' },
  };
  expect(await messages.next()).toEqual(updated);
  expect((await h.call(token, 'fs_delete', { path: 'notes/a.txt' })).status).toBe(200);
  expect(await messages.next()).toEqual(updated);
  client.abort();
  await messages.cancel();

  const discover = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('MCP-Protocol-Version', '2026-07-28')
    .send({ jsonrpc: '2.0', id: 1, method: 'server/discover' });
  expect(discover.body.result.capabilities.resources).toEqual({ subscribe: true, listChanged: false });
});

it('refuses a listen without an event stream, and URIs that are not resources here', async () => {
  const { token } = await h.agent();
  const body = (uris: unknown) => ({
    jsonrpc: '2.0',
    id: 2,
    method: 'subscriptions/listen',
    params: { notifications: { resourceUris: uris } },
  });
  const json = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .send(body(['file:///a']));
  expect(json.status).toBe(400);
  expect(json.body.error.code).toBe(-32600);
  const bad = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send(body(['https://elsewhere/x']));
  expect(bad.body.error.code).toBe(-32602);
});

it('a listen with taskIds (Tasks extension) is told of its task until it completes, with the result', async () => {
  const { token } = await h.account();
  const other = await h.account();
  const caps = {
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  };
  const created = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('MCP-Protocol-Version', '2026-07-28')
    .send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'proc_execute',
        arguments: {
          language: 'javascript',
          code: 'const t = Date.now(); while (Date.now() - t < 1500) {} console.log(6 * 7)',
        },
        _meta: caps,
      },
    });
  const { taskId } = created.body.result;
  const client = new AbortController();
  const res = await listenForUpdates(
    h.url,
    `Bearer ${token}`,
    { taskIds: [taskId, 'exe_notmine'] },
    client.signal,
    caps,
  );
  const messages = sseMessages(res);
  expect(await messages.next()).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { resourceUris: [], taskIds: [taskId] } },
  });
  let last: { params: { taskId: string; status: string; result?: { structuredContent?: unknown } } };
  do {
    last = (await messages.next()) as typeof last;
    expect(last).toMatchObject({ method: 'notifications/tasks', params: { taskId } });
  } while (last.params.status === 'working');
  expect(last.params.status).toBe('completed');
  expect(JSON.stringify(last.params.result!.structuredContent)).toContain('42');
  client.abort();
  await messages.cancel();

  // Without the extension declared: -32003.
  const refused = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${other.token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send({
      jsonrpc: '2.0',
      id: 3,
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [taskId] } },
    });
  expect(refused.body.error.code).toBe(-32003);
});
