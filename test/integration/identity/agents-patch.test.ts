import { agentsCollection } from '../../../actors/identity/agents.collection';
import { BUILTIN_PRIMITIVES } from '../../../schemas/tools/primitives';
import { bearer, startIdentityHarness, type IdentityHarness } from './support/identity-harness';

/**
 * `POST /api/agents` with `allowedTools` / `allowedDomains` (subagents within their parent), and
 * `PATCH /api/agents {agentRef, allowedTools?, allowedDomains?, status?}` (account only, 404 for
 * anything that is not the caller's agent), taking effect at once on `/mcp`.
 */

let h: IdentityHarness;
let op: { auth: string };

const agents = () => h.runtime.documents.repository(agentsCollection);

const post = (auth: string, body: Record<string, unknown>) =>
  h.http().post('/api/agents').set('Authorization', auth).send(body);
const patch = (auth: string, body: Record<string, unknown>) =>
  h.http().patch('/api/agents').set('Authorization', auth).send(body);
const call = (auth: string, tool: string, input: Record<string, unknown>) =>
  h.http().post('/mcp').set('Authorization', auth).send({ tool, input });

let seq = 0;
async function deploy(auth: string, body: Record<string, unknown> = {}) {
  const res = await post(auth, { name: `agent ${++seq}`, ...body });
  if (res.status !== 201) throw new Error(`deploy failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { agentRef: res.body.agent.agentRef as string, auth: bearer(res.body.apiKey as string) };
}

/** The agent's stored lists, via its own key (`GET /agent/me`). */
async function listsOf(agentAuth: string) {
  const me = await h.http().get('/agent/me').set('Authorization', agentAuth);
  return {
    allowedTools: me.body.allowedTools as string[],
    allowedDomains: me.body.allowedDomains as string[],
  };
}

beforeAll(async () => {
  h = await startIdentityHarness();
  op = { auth: bearer((await h.account()).token) };
});

afterAll(async () => {
  await h.stop();
});

describe('POST /api/agents with allowedTools and allowedDomains', () => {
  it('stores them normalised (validated as for /register); absent = the defaults', async () => {
    const res = await post(op.auth, {
      name: 'Listed',
      allowedTools: ['Platform.MEM_GET', 'mcp.github.*', 'mem_get'],
      allowedDomains: ['API.Example.com.', '*.example.org'],
    });
    expect(res.status).toBe(201);
    // The spec's answer: no lists, no internal id.
    expect(Object.keys(res.body.agent).sort()).toEqual(['agentRef', 'isSubagent', 'name', 'status']);
    expect(await listsOf(bearer(res.body.apiKey))).toEqual({
      allowedTools: ['mem_get', 'mcp.github.*'],
      allowedDomains: ['api.example.com', '*.example.org'],
    });
    const plain = await deploy(op.auth);
    expect(await listsOf(plain.auth)).toEqual({ allowedTools: [...BUILTIN_PRIMITIVES], allowedDomains: [] });
  });

  it('400 for entries /register refuses', async () => {
    const tools = await post(op.auth, { name: 'Bad tools', allowedTools: ['rm_rf'] });
    expect(tools.status).toBe(400);
    expect(tools.body.code).toBe('VALIDATION_ERROR');
    const domains = await post(op.auth, { name: 'Bad domains', allowedDomains: ['https://x.com/path'] });
    expect(domains.status).toBe(400);
  });

  it('a subagent inherits its parent lists, and may narrow but not exceed them', async () => {
    const parent = await deploy(op.auth, {
      allowedTools: ['mem_*', 'mcp.github.*'],
      allowedDomains: ['*.example.com'],
    });
    const inherited = await deploy(op.auth, { parentAgentRef: parent.agentRef });
    expect(await listsOf(inherited.auth)).toEqual({
      allowedTools: ['mem_*', 'mcp.github.*'],
      allowedDomains: ['*.example.com'],
    });

    const narrower = await deploy(op.auth, {
      parentAgentRef: parent.agentRef,
      allowedTools: ['mem_get', 'mcp.github.search'],
      allowedDomains: ['api.example.com'],
    });
    expect(await listsOf(narrower.auth)).toEqual({
      allowedTools: ['mem_get', 'mcp.github.search'],
      allowedDomains: ['api.example.com'],
    });

    for (const body of [
      { allowedTools: ['net_http_get'] },
      { allowedTools: ['mcp.*'] },
      { allowedDomains: [] },
      { allowedDomains: ['example.com'] },
    ]) {
      const res = await post(op.auth, {
        name: `too wide ${++seq}`,
        parentAgentRef: parent.agentRef,
        ...body,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.error).toMatch(/not allowed to the parent agent/);
    }
  });

  it("a primitives pattern a parent allows name by name is stored expanded (later primitives don't leak)", async () => {
    const parent = await deploy(op.auth);
    const sub = await deploy(op.auth, { parentAgentRef: parent.agentRef, allowedTools: ['mem_*'] });
    expect((await listsOf(sub.auth)).allowedTools).toEqual(
      BUILTIN_PRIMITIVES.filter((n) => n.startsWith('mem_')),
    );
  });

  it('an agent key deploys no agent stronger than itself, and not at all when disabled', async () => {
    const narrow = await deploy(op.auth, { allowedTools: ['mem_get'], allowedDomains: ['a.example.com'] });
    const wider = await post(narrow.auth, { name: `by key ${++seq}`, allowedTools: ['mem_set'] });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toMatch(/not allowed to the calling agent/);
    // Without lists, the new agent gets the calling agent's.
    const byKey = await post(narrow.auth, { name: `by key ${++seq}` });
    expect(byKey.status).toBe(201);
    expect(await listsOf(bearer(byKey.body.apiKey))).toEqual({
      allowedTools: ['mem_get'],
      allowedDomains: ['a.example.com'],
    });

    expect((await patch(op.auth, { agentRef: narrow.agentRef, status: 'disabled' })).status).toBe(200);
    const refused = await post(narrow.auth, { name: `by key ${++seq}` });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/disabled/);
  });
});

describe('PATCH /api/agents', () => {
  it('changes the lists and the status; answers the agent with its lists, never an internal id', async () => {
    const agent = await deploy(op.auth);
    const res = await patch(op.auth, {
      agentRef: agent.agentRef,
      allowedTools: ['mem_get', 'mcp.calc.*'],
      allowedDomains: ['*.Example.com'],
      status: 'disabled',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agent: {
        agentRef: agent.agentRef,
        name: expect.any(String),
        isSubagent: false,
        status: 'disabled',
        allowedTools: ['mem_get', 'mcp.calc.*'],
        allowedDomains: ['*.example.com'],
      },
    });
    expect(res.text).not.toMatch(/agt_|acc_/);
    const doc = await agents().findOne({ agentRef: agent.agentRef });
    expect(doc).toMatchObject({ status: 'disabled', allowedTools: ['mem_get', 'mcp.calc.*'] });
    // The status listed by GET /api/agents too.
    const list = await h.http().get('/api/agents').set('Authorization', op.auth);
    expect(list.body.agents.find((a: { agentRef: string }) => a.agentRef === agent.agentRef).status).toBe(
      'disabled',
    );
  });

  it('[] restores the default tools; allowedDomains [] = every domain', async () => {
    const agent = await deploy(op.auth, { allowedTools: ['mem_get'], allowedDomains: ['a.example.com'] });
    const res = await patch(op.auth, { agentRef: agent.agentRef, allowedTools: [], allowedDomains: [] });
    expect(res.body.agent).toMatchObject({ allowedTools: [...BUILTIN_PRIMITIVES], allowedDomains: [] });
  });

  it("a subagent's new lists may not exceed its parent's ([] = the parent's)", async () => {
    const parent = await deploy(op.auth, { allowedTools: ['mem_*'], allowedDomains: ['*.example.com'] });
    const sub = await deploy(op.auth, { parentAgentRef: parent.agentRef, allowedTools: ['mem_get'] });
    const wide = await patch(op.auth, { agentRef: sub.agentRef, allowedTools: ['mem_get', 'proc_execute'] });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatch(/proc_execute/);
    expect((await patch(op.auth, { agentRef: sub.agentRef, allowedDomains: ['x.org'] })).status).toBe(400);
    const reset = await patch(op.auth, { agentRef: sub.agentRef, allowedTools: [] });
    expect(reset.body.agent.allowedTools).toEqual(['mem_*']);
  });

  it('400 with nothing to change or invalid values', async () => {
    const agent = await deploy(op.auth);
    for (const body of [
      { agentRef: agent.agentRef },
      { agentRef: agent.agentRef, status: 'suspended' },
      { agentRef: agent.agentRef, allowedTools: ['nope'] },
      { agentRef: agent.agentRef, allowedDomains: ['http://x'] },
      { status: 'active' },
    ]) {
      const res = await patch(op.auth, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it("401 without credentials; 404 for an unknown agentRef and for another operator's agent", async () => {
    expect((await h.http().patch('/api/agents').send({ agentRef: 'agref-x', status: 'active' })).status).toBe(
      401,
    );
    const unknown = await patch(op.auth, { agentRef: 'agref-doesnotexist', status: 'disabled' });
    expect(unknown.status).toBe(404);
    const mine = await deploy(op.auth);
    const other = bearer((await h.account()).token);
    const theirs = await patch(other, { agentRef: mine.agentRef, status: 'disabled' });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: 'NOT_FOUND', error: unknown.body.error });
    expect((await agents().findOne({ agentRef: mine.agentRef }))!.status).toBe('active');
  });

  it('a self-registered agent cannot be patched (no operator); agent keys cannot patch (403)', async () => {
    const name = `Self patch ${Date.now()}`;
    expect((await h.http().post('/register').send({ name })).status).toBe(201);
    const registered = await agents().findOne({ ownerKey: 'public', nameKey: name.toLowerCase() });
    const res = await patch(op.auth, { agentRef: registered!.agentRef, status: 'disabled' });
    expect(res.status).toBe(404);

    const agent = await deploy(op.auth);
    const byKey = await patch(agent.auth, { agentRef: agent.agentRef, allowedTools: ['mcp.*'] });
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe('PERMISSION_DENIED');
  });
});

describe('PATCH /api/agents takes effect at once on /mcp', () => {
  it('a disabled agent is refused (403) on its very next call; re-enabled, it is served again', async () => {
    const agent = await deploy(op.auth);
    expect((await call(agent.auth, 'mem_set', { key: 'k', value: 1 })).status).toBe(200);
    expect((await patch(op.auth, { agentRef: agent.agentRef, status: 'disabled' })).status).toBe(200);
    const refused = await call(agent.auth, 'mem_get', { key: 'k' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
    expect(refused.body.error).toMatch(/disabled/);
    expect((await patch(op.auth, { agentRef: agent.agentRef, status: 'active' })).status).toBe(200);
    const back = await call(agent.auth, 'mem_get', { key: 'k' });
    expect(back.status).toBe(200);
    expect(back.body.result).toEqual({ value: 1, found: true });
  });

  it('narrowing allowedTools applies to the very next call', async () => {
    const agent = await deploy(op.auth);
    expect((await call(agent.auth, 'mem_set', { key: 'n', value: 2 })).status).toBe(200);
    expect((await patch(op.auth, { agentRef: agent.agentRef, allowedTools: ['mem_get'] })).status).toBe(200);
    const refused = await call(agent.auth, 'mem_set', { key: 'n', value: 3 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PERMISSION_DENIED', tool: 'mem_set' });
    expect((await call(agent.auth, 'mem_get', { key: 'n' })).body.result).toEqual({ value: 2, found: true });
  });

  it("disabling the account's default agent refuses the account's own /mcp calls", async () => {
    const account = bearer((await h.account()).token);
    expect((await call(account, 'mem_get', { key: 'k' })).status).toBe(200);
    const list = await h.http().get('/api/agents').set('Authorization', account);
    const def = list.body.agents.find((a: { name: string }) => a.name === 'Default agent');
    expect((await patch(account, { agentRef: def.agentRef, status: 'disabled' })).status).toBe(200);
    expect((await call(account, 'mem_get', { key: 'k' })).status).toBe(403);
  });
});
