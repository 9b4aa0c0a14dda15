import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { listenForUpdates } from '../../support/mcp-listen';
import { sseMessages } from '../../support/sse-reader';
import { eventually, startConnectorsHarness, type ConnectorsHarness } from './support/connectors-harness';
import { startLiveUpstream, type LiveUpstream } from './support/live-upstream';

/**
 * Upstream notifications of a connector (actors/connectors/connector-upstream.ts,
 * connector-relay.ts; docs/connectors.md "Upstream notifications"), against a tiny MCP server made
 * with the SDK (support/live-upstream.ts): a tool registered upstream after the connector was created sends
 * `tools/list_changed`, and the next `/mcp` `tools/list` has it without a refresh; a resource
 * subscribed through `/mcp` as `connector://<slug>/<uri>` (2025 `resources/subscribe`, and the
 * 2026 `subscriptions/listen`) is subscribed upstream, and the server's
 * `notifications/resources/updated` reaches the subscriber under the federated URI, and only it.
 */

let h: ConnectorsHarness;
let upstream: LiveUpstream;
let owner: { token: string; auth: string };
const NOTE = `connector://live/${encodeURIComponent('memo://note')}`;

beforeAll(async () => {
  h = await startConnectorsHarness();
  upstream = await startLiveUpstream();
  owner = await h.account();
  const res = await h
    .http()
    .post('/api/connectors')
    .set('Authorization', owner.auth)
    .send({ slug: 'live', transport: 'http', url: upstream.url });
  if (res.status !== 201) throw new Error(`connector: ${res.status} ${JSON.stringify(res.body)}`);
}, 60_000);

afterAll(async () => {
  await h.stop();
  await upstream.stop();
});

const toolNames = async (auth: string): Promise<string[]> => {
  const res = await h
    .http()
    .post('/mcp')
    .set('Authorization', auth)
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  expect(res.status).toBe(200);
  return (res.body.result.tools as Array<{ name: string }>).map((t) => t.name);
};

it('a tool added upstream (tools/list_changed) is in the next tools/list, without a refresh', async () => {
  expect(await toolNames(owner.auth)).toContain('mcp.live.first');
  expect(await toolNames(owner.auth)).not.toContain('mcp.live.second');
  upstream.addTool('second');
  await eventually(async () => (await toolNames(owner.auth)).includes('mcp.live.second'), 30_000);
  // And it is callable: the stored catalog is what calls are checked against.
  const call = await h
    .http()
    .post('/mcp')
    .set('Authorization', owner.auth)
    .send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'mcp.live.second', arguments: {} },
    });
  expect(call.body.result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'second' }] });
}, 60_000);

it('resources/subscribe to connector://… subscribes upstream, and its updates reach that session only', async () => {
  const connect = async (token: string) => {
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'relay-test', version: '1.0.0' });
    await client.connect(transport);
    const seen: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    return { client, transport, seen };
  };
  const subscriber = await connect(owner.token);
  const bystander = await connect(owner.token);
  try {
    await subscriber.client.subscribeResource({ uri: NOTE });
    expect(upstream.subscribed).toContain('memo://note');
    // The client opens its GET stream after `initialized`: send updates until one is heard.
    await eventually(async () => {
      await upstream.updated('memo://note');
      return subscriber.seen.length > 0;
    }, 30_000);
    expect(new Set(subscriber.seen)).toEqual(new Set([NOTE]));
    // Another session of the same token did not subscribe: nothing for it.
    expect(bystander.seen).toEqual([]);
  } finally {
    for (const c of [subscriber, bystander]) {
      await c.transport.terminateSession().catch(() => undefined);
      await c.client.close();
    }
  }
}, 60_000);

it('subscriptions/listen (2026-07-28) takes connector:// URIs and relays their updates', async () => {
  const stranger = await h.account();
  const client = new AbortController();
  const listen = (auth: string) => listenForUpdates(h.url, auth, [NOTE], client.signal);
  try {
    // Another account has no connector "live": refused as a resource of nobody's.
    const refused = await listen(stranger.auth);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32602);

    const res = await listen(owner.auth);
    const messages = sseMessages(res, 30_000);
    expect(await messages.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceUris: [NOTE] } },
    });
    await upstream.updated('memo://elsewhere');
    await upstream.updated('memo://note');
    expect(await messages.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: NOTE },
    });
  } finally {
    client.abort();
  }
}, 60_000);
