import { startConnectorsHarness, type ConnectorsHarness } from '../connectors/support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from '../connectors/support/test-mcp-server';
import { eventually } from '../../support/async';
import { CONNECTOR_FORWARDED_METHODS } from '../../../schemas/messages/connectors';

/**
 * Connector resources, prompts and completions federated into `/mcp`
 * (actors/tools/router/mcp-connector-catalog.ts, actors/connectors/connector-forward.ts), against a
 * real MCP server built with the SDK: `connector://<slug>/<encoded uri>` resources and templates,
 * `mcp.<slug>.<prompt>` prompts, completions of both, the audit of the connector, and another
 * account that cannot reach them.
 */

let h: ConnectorsHarness;
let server: TestMcpServer;
let owner: { auth: string };
let stranger: { auth: string };

const rpc = async (auth: string, method: string, params: Record<string, unknown> = {}) => {
  const res = await h
    .http()
    .post('/mcp')
    .set('Authorization', auth)
    .set('MCP-Protocol-Version', '2025-11-25')
    .send({ jsonrpc: '2.0', id: 1, method, params });
  expect(res.status).toBe(200);
  return res.body as { result?: Record<string, unknown>; error?: { code: number; message: string } };
};

const README = `connector://memo/${encodeURIComponent('memo://docs/readme')}`;

beforeAll(async () => {
  h = await startConnectorsHarness();
  server = await startTestMcpServer();
  owner = await h.account();
  stranger = await h.account();
  const res = await h
    .http()
    .post('/api/connectors')
    .set('Authorization', owner.auth)
    .send({ slug: 'memo', transport: 'http', url: server.url });
  if (res.status !== 201) throw new Error(`connector: ${res.status} ${JSON.stringify(res.body)}`);
});

afterAll(async () => {
  await h.stop();
  await server.stop().catch(() => undefined);
});

it('lists and reads upstream resources under connector://<slug>/, and audits the read', async () => {
  // The caller's own files come first; the connector's resources follow on the next pages.
  const seen: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const answer = await rpc(owner.auth, 'resources/list', cursor ? { cursor } : {});
    seen.push(...(answer.result!.resources as Array<Record<string, unknown>>));
    cursor = answer.result!.nextCursor as string | undefined;
    if (!cursor) break;
  }
  expect(seen).toContainEqual(
    expect.objectContaining({ uri: README, name: 'readme', title: 'Readme', mimeType: 'text/plain' }),
  );

  const read = await rpc(owner.auth, 'resources/read', { uri: README });
  expect(read.result).toEqual({
    contents: [{ uri: README, mimeType: 'text/plain', text: 'upstream readme' }],
  });

  const templates = await rpc(owner.auth, 'resources/templates/list');
  const template = `connector://memo/${encodeURIComponent('memo://items/')}{id}`;
  expect(templates.result!.resourceTemplates).toContainEqual(
    expect.objectContaining({ uriTemplate: template, name: 'item' }),
  );
  // A client expands the template as RFC 6570 says; the read reaches the upstream template.
  const item = await rpc(owner.auth, 'resources/read', { uri: template.replace('{id}', 'beta') });
  expect(item.result!.contents).toEqual([
    {
      uri: `connector://memo/${encodeURIComponent('memo://items/beta')}`,
      mimeType: 'application/json',
      text: '{"id":"beta"}',
    },
  ]);
  const idValues = await rpc(owner.auth, 'completion/complete', {
    ref: { type: 'ref/resource', uri: template },
    argument: { name: 'id', value: 'g' },
  });
  expect(idValues.result).toEqual({ completion: { values: ['gamma'], hasMore: false } });

  const missing = await rpc(owner.auth, 'resources/read', {
    uri: `connector://memo/${encodeURIComponent('memo://nope')}`,
  });
  expect(missing.error?.code).toBe(-32002);

  // Audited as the connector's calls are: the last outcome kept names a federated method.
  await eventually(async () => {
    const res = await h.http().get('/api/connectors/memo').set('Authorization', owner.auth);
    const tool = res.body.connector?.lastAuditOutcome?.tool as string | undefined;
    return tool !== undefined && (CONNECTOR_FORWARDED_METHODS as readonly string[]).includes(tool);
  }, 15_000);
});

it('federates upstream prompts as mcp.<slug>.<prompt>, with gets and completions proxied', async () => {
  const list = await rpc(owner.auth, 'prompts/list');
  const prompts = list.result!.prompts as Array<Record<string, unknown>>;
  expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['summarize_file', 'mcp.memo.greet']));
  expect(prompts.find((p) => p.name === 'mcp.memo.greet')).toMatchObject({
    title: 'Greet',
    description: 'Greets someone in a language',
    arguments: [
      { name: 'name', required: true },
      { name: 'language', required: true },
    ],
  });
  const got = await rpc(owner.auth, 'prompts/get', {
    name: 'mcp.memo.greet',
    arguments: { name: 'Ada', language: 'french' },
  });
  expect(got.result!.messages).toEqual([
    { role: 'user', content: { type: 'text', text: 'Greet Ada in french' } },
  ]);
  const languages = await rpc(owner.auth, 'completion/complete', {
    ref: { type: 'ref/prompt', name: 'mcp.memo.greet' },
    argument: { name: 'language', value: 'f' },
  });
  expect(languages.result).toEqual({ completion: { values: ['french'], hasMore: false } });
  // The platform's own prompts still complete as before.
  const own = await rpc(owner.auth, 'completion/complete', {
    ref: { type: 'ref/prompt', name: 'summarize_file' },
    argument: { name: 'path', value: '' },
  });
  expect(own.result!.completion).toBeDefined();
});

it('another account reaches none of it', async () => {
  const resources = await rpc(stranger.auth, 'resources/list');
  expect(resources.result!.nextCursor).toBeUndefined();
  const read = await rpc(stranger.auth, 'resources/read', { uri: README });
  expect(read.error?.code).toBe(-32002);
  const prompts = await rpc(stranger.auth, 'prompts/list');
  expect((prompts.result!.prompts as Array<{ name: string }>).map((p) => p.name)).not.toContain(
    'mcp.memo.greet',
  );
  const got = await rpc(stranger.auth, 'prompts/get', {
    name: 'mcp.memo.greet',
    arguments: { name: 'x', language: 'y' },
  });
  expect(got.error?.code).toBe(-32602);
  const done = await rpc(stranger.auth, 'completion/complete', {
    ref: { type: 'ref/prompt', name: 'mcp.memo.greet' },
    argument: { name: 'language', value: 'f' },
  });
  expect(done.error).toBeDefined();
  expect(done.result).toBeUndefined();
});

it('an agent of the account reaches the connector only when its allowedTools permit one of its tools', async () => {
  const deploy = async (body: Record<string, unknown>) => {
    const res = await h.http().post('/api/agents').set('Authorization', owner.auth).send(body);
    if (res.status !== 201) throw new Error(`deploy failed: ${res.status} ${JSON.stringify(res.body)}`);
    return `Bearer ${res.body.apiKey as string}`;
  };
  const plain = await deploy({ name: 'Plain' });
  expect((await rpc(plain, 'resources/read', { uri: README })).error?.code).toBe(-32002);
  const prompts = await rpc(plain, 'prompts/list');
  expect((prompts.result!.prompts as Array<{ name: string }>).map((p) => p.name)).not.toContain(
    'mcp.memo.greet',
  );

  const echoer = await deploy({ name: 'Echoer', allowedTools: ['mcp.memo.echo'] });
  expect((await rpc(echoer, 'resources/read', { uri: README })).result!.contents).toEqual([
    { uri: README, mimeType: 'text/plain', text: 'upstream readme' },
  ]);
});
