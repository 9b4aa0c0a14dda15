import { createConnectorTools } from '../../../actors/connectors/connector-tools';
import {
  EVERYTHING_ENTRY,
  everythingChildren,
  startConnectorsHarness,
  type ConnectorsHarness,
} from './support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from './support/test-mcp-server';
import { subjectOf } from '../../support/token-claims';

/** Validation, conflicts, unknown connectors, tenant isolation, who may manage, and the gates. */

let h: ConnectorsHarness;
let server: TestMcpServer;
let a: { token: string; auth: string };
let b: { token: string; auth: string };
const accountIdOf = (token: string) => subjectOf(token, h.runtime.secrets.jwtSecret);

beforeAll(async () => {
  h = await startConnectorsHarness();
  server = await startTestMcpServer();
  [a, b] = [await h.account(), await h.account()];
  const created = await h
    .http()
    .post('/api/connectors')
    .set('Authorization', a.auth)
    .send({ slug: 'calc', transport: 'http', url: server.url });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await h.stop();
  await server.stop();
  expect(everythingChildren()).toEqual([]);
});

const post = (auth: string, body: unknown) =>
  h
    .http()
    .post('/api/connectors')
    .set('Authorization', auth)
    .send(body as object);

describe('validation', () => {
  it.each(['A', 'x', '-calc', 'calc_1', 'c'.repeat(41), 'calc.x'])('refuses slug %j (400)', async (slug) => {
    const res = await post(a.auth, { slug, transport: 'http', url: server.url });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: 'slug' })],
    });
  });

  it('refuses fields of the other transport and missing ones (400, named)', async () => {
    const stdioNoCommand = await post(a.auth, { slug: 'one', transport: 'stdio' });
    expect(stdioNoCommand.status).toBe(400);
    expect(stdioNoCommand.body.error).toMatch(/command/);
    const httpWithCommand = await post(a.auth, {
      slug: 'two',
      transport: 'http',
      url: server.url,
      command: 'x',
    });
    expect(httpWithCommand.status).toBe(400);
    const credentials = await post(a.auth, {
      slug: 'three',
      transport: 'http',
      url: 'https://u:p@example.com/mcp',
    });
    expect(credentials.status).toBe(400);
    expect(credentials.body.error).toMatch(/credentials/);
    const scheme = await post(a.auth, { slug: 'four', transport: 'http', url: 'ftp://example.com/mcp' });
    expect(scheme.status).toBe(400);
    const badTransport = await post(a.auth, { slug: 'five', transport: 'sse', url: server.url });
    expect(badTransport.status).toBe(400);
  });

  it('refuses headers the transport owns (400)', async () => {
    const res = await post(a.auth, {
      slug: 'hdr',
      transport: 'http',
      url: server.url,
      headers: { Host: 'evil.example', 'Mcp-Session-Id': 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/headers\.Host/);
  });

  it('a duplicate slug in the same account is 409', async () => {
    const res = await post(a.auth, { slug: 'calc', transport: 'http', url: server.url });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', field: 'slug' });
  });

  it('an unknown connector is 404 on every route and for calls', async () => {
    for (const req of [
      h.http().get('/api/connectors/nope'),
      h.http().delete('/api/connectors/nope'),
      h.http().delete('/api/connectors?slug=nope'),
      h.http().post('/api/connectors/nope/refresh'),
      h.http().patch('/api/connectors/nope').send({ enabled: false }),
    ]) {
      const res = await req.set('Authorization', a.auth);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    await expect(
      createConnectorTools(h.runtime.system).callConnectorTool(accountIdOf(a.token), 'nope', 'echo', {}),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const viaRouter = await h
      .http()
      .post('/mcp')
      .set('Authorization', a.auth)
      .send({ tool: 'mcp.nope.echo', input: {} });
    expect([403, 404]).toContain(viaRouter.status);
  });

  it('a server that cannot be reached is refused at registration (503, readable, nothing saved)', async () => {
    const down = await startTestMcpServer();
    await down.stop();
    const res = await post(a.auth, { slug: 'down', transport: 'http', url: down.url });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/^MCP connector "down": connection refused/);
    const list = await h.http().get('/api/connectors').set('Authorization', a.auth);
    expect(list.body.connectors.map((c: { slug: string }) => c.slug)).toEqual(['calc']);
  });

  it('an SSRF target is refused (403): cloud metadata, private addresses', async () => {
    for (const url of ['http://169.254.169.254/mcp', 'https://10.0.0.5/mcp', 'https://[fd00::1]/mcp']) {
      const res = await post(a.auth, { slug: 'ssrf', transport: 'http', url });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/refused/);
    }
  });
});

describe('tenant isolation', () => {
  it("account B sees none of A's connectors and cannot call, change or delete them", async () => {
    const list = await h.http().get('/api/connectors').set('Authorization', b.auth);
    expect(list.body.connectors).toEqual([]);
    expect((await h.http().get('/api/connectors/calc').set('Authorization', b.auth)).status).toBe(404);
    expect((await h.http().delete('/api/connectors/calc').set('Authorization', b.auth)).status).toBe(404);
    expect((await h.http().post('/api/connectors/calc/refresh').set('Authorization', b.auth)).status).toBe(
      404,
    );
    const tools = createConnectorTools(h.runtime.system);
    await expect(
      tools.callConnectorTool(accountIdOf(b.token), 'calc', 'echo', { message: 'x' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await tools.listConnectorTools(accountIdOf(b.token))).toEqual([]);
    // B's principal with A's account: refused by the function, and by A's actor itself.
    await expect(
      tools.callConnectorTool(
        accountIdOf(a.token),
        'calc',
        'echo',
        { message: 'x' },
        {
          auth: { subjectType: 'account', accountId: accountIdOf(b.token), via: 'bearer' },
        },
      ),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(
      h.runtime.system.ask(
        `connectors:${accountIdOf(a.token)}`,
        'connectors.list',
        {},
        {
          auth: { subjectType: 'account', accountId: accountIdOf(b.token), via: 'bearer' },
        },
      ),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    // A's connector is still there.
    expect((await h.http().get('/api/connectors/calc').set('Authorization', a.auth)).status).toBe(200);
  });

  it('B may use the same slug for its own connector', async () => {
    const res = await post(b.auth, { slug: 'calc', transport: 'http', url: server.url });
    expect(res.status).toBe(201);
    const listA = await h.http().get('/api/connectors').set('Authorization', a.auth);
    const listB = await h.http().get('/api/connectors').set('Authorization', b.auth);
    expect(listA.body.connectors).toHaveLength(1);
    expect(listB.body.connectors).toHaveLength(1);
  });
});

describe('who manages connectors', () => {
  it("an agent key lists its operator's connectors but cannot create or delete (403)", async () => {
    const deployed = await h.http().post('/api/agents').set('Authorization', a.auth).send({ name: 'worker' });
    const agentAuth = `Bearer ${deployed.body.apiKey as string}`;
    const list = await h.http().get('/api/connectors').set('Authorization', agentAuth);
    expect(list.status).toBe(200);
    expect(list.body.connectors.map((c: { slug: string }) => c.slug)).toEqual(['calc']);
    expect((await post(agentAuth, { slug: 'mine', transport: 'http', url: server.url })).status).toBe(403);
    expect((await h.http().delete('/api/connectors/calc').set('Authorization', agentAuth)).status).toBe(403);
  });

  it('a named token needs the mcp_connector (or api) scope', async () => {
    const scoped = await h
      .http()
      .post('/api/bearer-tokens')
      .set('Authorization', a.auth)
      .send({ name: 'wf', scopes: ['workflow'] });
    const mcp = await h
      .http()
      .post('/api/bearer-tokens')
      .set('Authorization', a.auth)
      .send({ name: 'mc', scopes: ['mcp_connector'] });
    expect(
      (await h.http().get('/api/connectors').set('Authorization', `Bearer ${scoped.body.bearerToken}`))
        .status,
    ).toBe(403);
    expect(
      (await h.http().get('/api/connectors').set('Authorization', `Bearer ${mcp.body.bearerToken}`)).status,
    ).toBe(200);
  });

  it('no credentials: 401', async () => {
    expect((await h.http().get('/api/connectors')).status).toBe(401);
  });
});

describe('stdio gating', () => {
  const everything = {
    slug: 'ev',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING_ENTRY, 'stdio'],
  };

  it('needs an enterprise plan (manage_manifest): 403 for retail', async () => {
    const retail = await h.account('retail_pro');
    const res = await post(retail.auth, everything);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Plan capability required: manage_manifest');
  });

  it('refuses a command line outside MCP_STDIO_ALLOWLIST (403)', async () => {
    for (const body of [
      { ...everything, command: '/bin/sh', args: ['-c', 'id'] },
      // The allowed interpreter with another script, or options before the allowed script.
      { ...everything, args: ['-e', 'process.exit(0)'] },
      { ...everything, args: ['--require', '/tmp/x.js', EVERYTHING_ENTRY] },
    ]) {
      const res = await post(a.auth, body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'PERMISSION_DENIED', reason: 'stdio_not_allowlisted' });
    }
    expect(everythingChildren()).toEqual([]);
  });

  it('refuses environment variables that change which code runs (400)', async () => {
    for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'PATH', 'PYTHONPATH']) {
      const res = await post(a.auth, { ...everything, env: { [name]: '--require /tmp/x.js' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(name);
    }
  });

  it('without MCP_STDIO_ALLOWLIST (and without ALLOW_LOOPBACK_HTTP) stdio and loopback are refused', async () => {
    const strict = await startConnectorsHarness({ MCP_STDIO_ALLOWLIST: '', ALLOW_LOOPBACK_HTTP: 'false' });
    try {
      const owner = await strict.account();
      const stdio = await strict
        .http()
        .post('/api/connectors')
        .set('Authorization', owner.auth)
        .send(everything);
      expect(stdio.status).toBe(403);
      expect(stdio.body).toMatchObject({ reason: 'stdio_disabled' });
      expect(stdio.body.error).toMatch(/MCP_STDIO_ALLOWLIST/);
      const loopback = await strict
        .http()
        .post('/api/connectors')
        .set('Authorization', owner.auth)
        .send({ slug: 'local', transport: 'http', url: server.url });
      expect(loopback.status).toBe(403);
      expect(loopback.body.error).toMatch(/refused/);
    } finally {
      await strict.stop();
    }
  });
});
