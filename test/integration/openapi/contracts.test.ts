import request from 'supertest';
import { ToolsListResultSchema } from '../../../schemas/http/mcp';
import { startOpenApiHarness, type OpenApiHarness } from './support/openapi-harness';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * The main flows, answered by a real runtime, checked against the schemas the served
 * `/openapi.json` gives for each route and status: a handler whose answer drifts from its
 * documented contract fails here.
 */
describe('real answers match their documented schemas', () => {
  let h: OpenApiHarness;
  /** An account's bearer token for the flows below (the signup flow makes its own account). */
  let token: string;
  beforeAll(async () => {
    h = await startOpenApiHarness();
    const res = await h
      .http()
      .post('/api/signup')
      .send({
        email: `openapi-main-${Date.now()}@example.com`,
        password: 'correct horse battery',
        accountType: 'retail',
        selectedPlan: 'retail_pro',
      });
    if (res.status !== 201) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
    token = res.body.credentials.bearerToken;
  });
  afterAll(() => h?.stop());

  /** Sends, checks the expected status, then checks the body against the document; returns the body. */
  async function call(
    method: 'get' | 'post' | 'patch' | 'delete',
    path: string,
    expected: number,
    opts: { auth?: Record<string, string>; body?: unknown; query?: string; route?: string } = {},
  ): Promise<request.Response> {
    let req = h.http()[method](`${path}${opts.query ?? ''}`);
    if (opts.auth) req = req.set(opts.auth);
    const res = opts.body === undefined ? await req : await req.send(opts.body as object);
    if (res.status !== expected) {
      throw new Error(`${method.toUpperCase()} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    h.expectDocumented(method, opts.route ?? path, res);
    return res;
  }

  it('signup and the session (anonymous, by bearer, by cookie), signin and sign-out', async () => {
    const email = `openapi-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const signup = await call('post', '/api/signup', 201, {
      body: { email, password, accountType: 'retail', selectedPlan: 'retail_pro' },
    });
    const own = signup.body.credentials.bearerToken as string;
    const cookies = ([] as string[]).concat(signup.headers['set-cookie'] ?? []);
    expect(cookies.join(';')).toMatch(/ars\.sid=/);
    expect((await call('get', '/api/session', 200)).body).toEqual({ authenticated: false, session: null });
    expect((await call('get', '/api/session', 200, { auth: bearer(own) })).body.session.via).toBe('bearer');
    const byCookie = await call('get', '/api/session', 200, { auth: { Cookie: cookies.join('; ') } });
    expect(byCookie.body.session).toMatchObject({ via: 'session', plan: 'retail_pro' });
    await call('post', '/api/signin', 200, { body: { email, password } });
    await call('post', '/api/session/token', 200, { auth: bearer(own) });
    await call('delete', '/api/session', 200);
  });

  it('errors are the documented error body: 400, 401, 404', async () => {
    const bad = await call('post', '/api/signup', 400, { body: { email: 'nope' } });
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect((await call('get', '/api/files', 401)).body.code).toBe('UNAUTHORIZED');
    const missing = await call('get', '/api/executions/exec_missing', 404, {
      auth: bearer(token),
      route: '/api/executions/:id',
    });
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('agents: self-registration, /agent/me, deployed agents', async () => {
    const reg = await call('post', '/register', 201, { body: { name: 'openapi-bot' } });
    await call('get', '/agent/me', 200, { auth: bearer(reg.body.token) });
    await call('post', '/api/agents', 201, { auth: bearer(token), body: { name: 'openapi-deployed' } });
    const list = await call('get', '/api/agents', 200, { auth: bearer(token) });
    expect(list.body.agents.length).toBeGreaterThan(0);
  });

  it('bearer tokens: create (revealed once), list, rotate, revoke', async () => {
    const created = await call('post', '/api/bearer-tokens', 201, {
      auth: bearer(token),
      body: { name: 'ci', scopes: ['api'] },
    });
    const id = created.body.token.id;
    const list = await call('get', '/api/bearer-tokens', 200, { auth: bearer(token) });
    expect(JSON.stringify(list.body)).not.toContain(created.body.bearerToken);
    await call('patch', '/api/bearer-tokens', 200, { auth: bearer(token), body: { id, action: 'rotate' } });
    await call('patch', '/api/bearer-tokens', 200, { auth: bearer(token), body: { id, name: 'ci-2' } });
    await call('delete', '/api/bearer-tokens', 200, { auth: bearer(token), body: { id } });
  });

  it('files, then the executions they recorded (list and detail)', async () => {
    const auth = bearer(token);
    await call('post', '/api/files', 201, { auth, body: { path: 'docs/a.txt', data: 'one\ntwo\n' } });
    await call('get', '/api/files', 200, { auth });
    await call('get', '/api/files', 200, { auth, query: '?action=preview&path=docs/a.txt' });
    await call('get', '/api/files', 200, { auth, query: '?action=summarize&path=docs/a.txt' });
    await call('patch', '/api/files', 200, { auth, body: { path: 'docs/a.txt', nextPath: 'docs/b.txt' } });
    await call('delete', '/api/files', 200, { auth, query: '?path=docs/b.txt' });
    const list = await call('get', '/api/executions', 200, { auth });
    expect(list.body.executions.length).toBeGreaterThanOrEqual(3);
    const id = list.body.executions[0].id;
    await call('get', `/api/executions/${id}`, 200, { auth, route: '/api/executions/:id' });
    await call('post', '/api/executions', 201, {
      auth,
      body: { title: 'Demo', start: false, steps: [{ op: 'sleep', ms: 1 }] },
    });
  });

  it('memory: write, replace, list, export, delete', async () => {
    const auth = bearer(token);
    const entry = { key: 'colour', content: { value: 'teal' }, tags: ['profile'] };
    await call('post', '/api/memory', 201, { auth, body: entry });
    await call('post', '/api/memory', 200, { auth, body: { ...entry, content: { value: 'red' } } });
    await call('get', '/api/memory', 200, { auth });
    await call('get', '/api/memory', 200, { auth, query: '?export=1' });
    await call('delete', '/api/memory', 200, { auth, query: '?key=colour' });
  });

  it('vault: store, list (masked), audit, delete', async () => {
    const auth = bearer(token);
    const created = await call('post', '/api/vault', 201, {
      auth,
      body: { name: 'OPENAPI_KEY', value: 's3cret' },
    });
    const list = await call('get', '/api/vault', 200, { auth });
    expect(JSON.stringify(list.body)).not.toContain('s3cret');
    await call('get', '/api/vault/audit', 200, { auth });
    await call('delete', '/api/vault', 200, { auth, body: { secretId: created.body.secret.id } });
  });

  it('the skill and app stores: listings, preview, installed', async () => {
    const skills = await call('get', '/api/skills', 200);
    expect(skills.body.skills.length).toBeGreaterThan(0);
    const slug = skills.body.skills[0].slug;
    await call('get', `/api/skills/${slug}/preview`, 200, { route: '/api/skills/:id/preview' });
    await call('get', '/api/skills/discovery', 200);
    await call('get', '/api/skills/installed', 200, { auth: bearer(token) });
    await call('get', '/api/apps', 200);
    await call('get', '/api/apps/updates', 200, { auth: bearer(token) });
  });

  it('workspaces: create, read, list; a skill installed and used', async () => {
    const auth = bearer(token);
    const created = await call('post', '/api/workspaces', 201, { auth, body: { name: 'Docs team' } });
    const id = created.body.workspace.id;
    await call('get', `/api/workspaces/${id}`, 200, { auth, route: '/api/workspaces/:workspaceId' });
    const list = await call('get', '/api/workspaces', 200, { auth });
    expect(list.body.workspaces.map((w: { id: string }) => w.id)).toContain(id);
    await call('post', '/api/skills/install', 201, { auth, body: { slug: 'ip-calculator' } });
    const used = await call('post', '/api/skills/use', 200, {
      auth,
      body: { skill_slug: 'ip-calculator', capability: 'cidr', params: { cidr: '10.0.0.0/24' } },
    });
    expect(used.body.success).toBe(true);
    const installed = await call('get', '/api/skills/installed', 200, { auth });
    expect(installed.body.installed_skills[0].skill.slug).toBe('ip-calculator');
  });

  it('the tool router: /mcp tools/list and tools/call (JSON-RPC), {tool, input}, GET /tools, health', async () => {
    const list = await call('post', '/mcp', 200, {
      auth: { ...bearer(token), Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const result = ToolsListResultSchema.parse(list.body.result);
    expect(result.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/mem_set/)]),
    );
    const mcpAuth = { ...bearer(token), Accept: 'application/json, text/event-stream' };
    const rpcCall = await call('post', '/mcp', 200, {
      auth: mcpAuth,
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'mem_set', arguments: { key: 'k', value: 1 } },
      },
    });
    expect(rpcCall.body.result.isError ?? false).toBe(false);
    const direct = await call('post', '/mcp', 200, {
      auth: mcpAuth,
      body: { tool: 'mem_get', input: { key: 'k' } },
    });
    expect(direct.body.success).toBe(true);
    await call('get', '/tools', 200);
    await call('get', '/health', 200);
    await call('get', '/livez', 200);
    await call('get', '/api/panic', 200, { auth: bearer(token) });
    await call('get', '/api/notifications', 200, { auth: bearer(token) });
    await call('get', '/api/workspaces', 200, { auth: bearer(token) });
  });
});
