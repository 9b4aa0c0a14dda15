import jwt from 'jsonwebtoken';
import { Collection } from 'mongodb';
import { agentsCollection } from '../../../actors/identity/agents.collection';
import { REGISTER_RATE_LIMIT } from '../../../actors/identity/agents.route';
import { createRateLimiter } from '../../../src/store/cache';
import { BUILTIN_PRIMITIVES } from '../../../schemas/tools/primitives';
import { bearer, eventually, startIdentityHarness, type IdentityHarness } from './support/identity-harness';
import { claimsOf } from '../../support/token-claims';

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentityHarness();
});
afterAll(async () => {
  await h.stop();
});

/** Every test starts with a fresh /register budget for this client address. */
beforeEach(async () => {
  const limiter = createRateLimiter(h.runtime.cache, {
    keyPrefix: `rl:${REGISTER_RATE_LIMIT.name}`,
    points: REGISTER_RATE_LIMIT.points,
    durationSec: REGISTER_RATE_LIMIT.durationSec,
  });
  for (const ip of ['127.0.0.1', '::ffff:127.0.0.1']) await limiter.reset(`:${ip}`);
});

let seq = 0;
const uniqueName = (base: string) => `${base} ${process.pid}-${++seq}`;
const agents = () => h.runtime.documents.repository(agentsCollection);

describe('POST /register', () => {
  it('registers an agent: 201 with a 90-day agent token, the defaults and the endpoints', async () => {
    const res = await h
      .http()
      .post('/register')
      .send({ name: uniqueName('Scout'), description: 'finds things' });
    expect(res.status).toBe(201);
    const base = h.runtime.config.PUBLIC_BASE_URL;
    expect(res.body).toEqual({
      token: expect.any(String),
      expiresIn: '90d',
      allowedDomains: [],
      allowedTools: [...BUILTIN_PRIMITIVES],
      mcpEndpoint: `${base}/mcp`,
      toolsEndpoint: `${base}/tools`,
    });
    // Readable by anyone: a random id, two times and the sealed rest; the internal id only inside.
    expect(Object.keys(jwt.decode(res.body.token) as jwt.JwtPayload).sort()).toEqual([
      'enc',
      'exp',
      'iat',
      'jti',
    ]);
    const claims = claimsOf(res.body.token, h.runtime.secrets.jwtSecret);
    expect(claims).toMatchObject({ typ: 'agent', sub: expect.stringMatching(/^agt_/) });
    expect(claims.acc).toBeUndefined();
    expect((claims.exp as number) - (claims.iat as number)).toBe(90 * 24 * 3600);
  });

  it('normalises allowedDomains and allowedTools and keeps the private agent id internal', async () => {
    const name = uniqueName('Norm');
    const privateId = `bot-${process.pid}-${seq}`;
    const res = await h
      .http()
      .post('/register')
      .send({
        name: `  ${name}  `,
        ownerEmail: ' Owner@Example.COM ',
        allowedDomains: ['API.Example.com.', '*.Foo.org', 'api.example.com', 'bücher.de', '93.184.216.34'],
        allowedTools: [
          'platform.mem_set',
          'DB_*',
          'mcp.github.create_issue',
          'mem_set',
          'platform.skill.pdf.extract',
        ],
        agentId: privateId,
      });
    expect(res.status).toBe(201);
    expect(res.body.allowedDomains).toEqual([
      'api.example.com',
      '*.foo.org',
      'xn--bcher-kva.de',
      '93.184.216.34',
    ]);
    expect(res.body.allowedTools).toEqual([
      'mem_set',
      'db_*',
      'mcp.github.create_issue',
      'platform.skill.pdf.extract',
    ]);
    expect(JSON.stringify(res.body)).not.toContain(privateId);
    const doc = await agents().findOne({ nameKey: name.toLowerCase() });
    expect(doc).toMatchObject({
      _id: `agt_${privateId}`,
      name,
      ownerEmail: 'owner@example.com',
      origin: 'registered',
    });
    expect(doc!.accountId).toBeUndefined();
  });

  it('treats an empty allowedTools as the default (every built-in primitive)', async () => {
    const res = await h
      .http()
      .post('/register')
      .send({ name: uniqueName('Empty'), allowedTools: [] });
    expect(res.status).toBe(201);
    expect(res.body.allowedTools).toEqual([...BUILTIN_PRIMITIVES]);
  });

  it.each([
    ['name missing', {}, 'name'],
    ['name blank', { name: '   ' }, 'name'],
    ['name too long', { name: 'x'.repeat(101) }, 'name'],
    ['name not a string', { name: 42 }, 'name'],
    ['description too long', { name: 'ok', description: 'd'.repeat(1001) }, 'description'],
    ['ownerEmail invalid', { name: 'ok', ownerEmail: 'not-an-email' }, 'ownerEmail'],
    ['allowedDomains not an array', { name: 'ok', allowedDomains: 'example.com' }, 'allowedDomains'],
    [
      'allowedDomains with a URL',
      { name: 'ok', allowedDomains: ['https://example.com'] },
      'allowedDomains[0]',
    ],
    ['allowedDomains with a port', { name: 'ok', allowedDomains: ['example.com:8080'] }, 'allowedDomains[0]'],
    [
      'allowedDomains with a path',
      { name: 'ok', allowedDomains: ['ok.com', 'example.com/x'] },
      'allowedDomains[1]',
    ],
    ['allowedDomains with a bad label', { name: 'ok', allowedDomains: ['-bad-.com'] }, 'allowedDomains[0]'],
    ['allowedTools unknown', { name: 'ok', allowedTools: ['rm_rf'] }, 'allowedTools[0]'],
    ['allowedTools bare star', { name: 'ok', allowedTools: ['*'] }, 'allowedTools[0]'],
    ['allowedTools not strings', { name: 'ok', allowedTools: [1] }, 'allowedTools[0]'],
    ['agentId with capitals', { name: 'ok', agentId: 'Bot_1' }, 'agentId'],
    ['agentId empty', { name: 'ok', agentId: '' }, 'agentId'],
  ])('400 VALIDATION_ERROR: %s', async (_label, body, field) => {
    const res = await h.http().post('/register').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining(field) });
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });

  it('400 for a body that is not JSON', async () => {
    const res = await h.http().post('/register').set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('409 for a duplicate name (case-insensitive) and for a duplicate private agent id', async () => {
    const name = uniqueName('Twin');
    expect((await h.http().post('/register').send({ name })).status).toBe(201);
    const again = await h.http().post('/register').send({ name: name.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      error: expect.stringContaining('already exists'),
      field: 'name',
    });

    const agentId = `dup-${process.pid}`;
    expect(
      (
        await h
          .http()
          .post('/register')
          .send({ name: uniqueName('A'), agentId })
      ).status,
    ).toBe(201);
    const clash = await h
      .http()
      .post('/register')
      .send({ name: uniqueName('B'), agentId });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'CONFLICT', field: 'agentId' });
    expect(JSON.stringify(clash.body)).not.toContain(`agt_${agentId}`);
  });

  it('one of two concurrent registrations of the same name wins, the other is 409', async () => {
    const name = uniqueName('Race');
    const results = await Promise.all([1, 2, 3].map(() => h.http().post('/register').send({ name })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('429 with Retry-After once an address spent its registrations (invalid attempts count too)', async () => {
    for (let i = 0; i < REGISTER_RATE_LIMIT.points; i++) {
      expect((await h.http().post('/register').send({})).status).toBe(400);
    }
    const res = await h
      .http()
      .post('/register')
      .send({ name: uniqueName('Late') });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('GET /agent/me', () => {
  it('answers the registration record for the agent token, without token or internal id', async () => {
    const name = uniqueName('Me');
    const reg = await h
      .http()
      .post('/register')
      .send({ name, allowedDomains: ['example.com'] });
    const res = await h.http().get('/agent/me').set('Authorization', bearer(reg.body.token));
    expect(res.status).toBe(200);
    const base = h.runtime.config.PUBLIC_BASE_URL;
    expect(res.body).toEqual({
      name,
      status: 'active',
      allowedDomains: ['example.com'],
      allowedTools: [...BUILTIN_PRIMITIVES],
      totalCalls: 0,
      lastActiveAt: null,
      createdAt: expect.any(String),
      mcpEndpoint: `${base}/mcp`,
      toolsEndpoint: `${base}/tools`,
    });
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('401 without a token, with a malformed one, or with a forged one', async () => {
    expect((await h.http().get('/agent/me')).status).toBe(401);
    expect((await h.http().get('/agent/me').set('Authorization', 'Bearer nope')).status).toBe(401);
    const forged = jwt.sign({ sub: 'agt_x', typ: 'agent', jti: 'j' }, 'not-the-secret-0123456789', {
      algorithm: 'HS256',
    });
    const res = await h.http().get('/agent/me').set('Authorization', bearer(forged));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('404 for a token with no registration (an account token)', async () => {
    const { token } = await h.account();
    const res = await h.http().get('/agent/me').set('Authorization', bearer(token));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No agent registration for this token', code: 'NOT_FOUND' });
  });

  it('counts calls (agent.recordCall) in memory and writes them in one batch', async () => {
    const name = uniqueName('Busy');
    const reg = await h.http().post('/register').send({ name });
    const doc = await agents().findOne({ nameKey: name.toLowerCase() });
    const address = `agent:${doc!._id}`;
    const updates = jest.spyOn(Collection.prototype, 'updateOne');
    try {
      for (let i = 0; i < 50; i++) await h.runtime.system.tell(address, 'agent.recordCall', {});
      const me = await eventually(async () => {
        const r = await h.http().get('/agent/me').set('Authorization', bearer(reg.body.token));
        return r.body.totalCalls === 50 ? r.body : undefined;
      });
      expect(Date.parse(me.lastActiveAt)).toBeGreaterThan(Date.now() - 60_000);
      const agentWrites = () =>
        updates.mock.contexts.filter((c) => (c as Collection).collectionName === 'agents').length;
      expect(agentWrites()).toBeLessThanOrEqual(1);
      // The batch lands within the flush interval (1 s).
      await eventually(async () => (await agents().findById(doc!._id))!.totalCalls === 50);
      expect(agentWrites()).toBe(1);
    } finally {
      updates.mockRestore();
    }
  });
});

describe('/api/agents', () => {
  it('401 without credentials', async () => {
    expect((await h.http().get('/api/agents')).status).toBe(401);
    expect((await h.http().post('/api/agents').send({ name: 'x' })).status).toBe(401);
  });

  it('lists nothing for a new operator, then its agents and subagents in creation order', async () => {
    const { token } = await h.account();
    const auth = bearer(token);
    expect((await h.http().get('/api/agents').set('Authorization', auth)).body).toEqual({ agents: [] });

    const created = await h
      .http()
      .post('/api/agents')
      .set('Authorization', auth)
      .send({ name: 'Planner', description: 'plans' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      agent: {
        agentRef: expect.stringMatching(/^agref-[A-Za-z0-9_-]{22}$/),
        name: 'Planner',
        isSubagent: false,
        status: 'active',
      },
      apiKey: expect.any(String),
    });
    const parentRef = created.body.agent.agentRef as string;

    const sub = await h
      .http()
      .post('/api/agents')
      .set('Authorization', auth)
      .send({ name: 'Planner helper', parentAgentRef: parentRef });
    expect(sub.status).toBe(201);
    expect(sub.body.agent).toMatchObject({ name: 'Planner helper', isSubagent: true, status: 'active' });
    expect(sub.body.agent.agentRef).not.toBe(parentRef);

    const list = await h.http().get('/api/agents').set('Authorization', auth);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ agents: [created.body.agent, sub.body.agent] });
  });

  it('the apiKey is an agent token of the operator: /agent/me answers its record', async () => {
    const { token } = await h.account();
    const created = await h
      .http()
      .post('/api/agents')
      .set('Authorization', bearer(token))
      .send({ name: 'Keyed' });
    expect((jwt.decode(created.body.apiKey) as jwt.JwtPayload).sub).toBeUndefined();
    const claims = claimsOf(created.body.apiKey, h.runtime.secrets.jwtSecret);
    expect(claims).toMatchObject({
      typ: 'agent',
      sub: expect.stringMatching(/^agt_/),
      acc: expect.any(String),
    });
    const me = await h.http().get('/agent/me').set('Authorization', bearer(created.body.apiKey));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'Keyed', status: 'active', totalCalls: 0 });
    // The key acts for its operator: it lists the operator's agents.
    const list = await h.http().get('/api/agents').set('Authorization', bearer(created.body.apiKey));
    expect(list.body.agents.map((a: { name: string }) => a.name)).toEqual(['Keyed']);
    const doc = await agents().findOne({ agentRef: created.body.agent.agentRef });
    expect(doc).toMatchObject({
      origin: 'deployed',
      accountId: claims.acc,
      totalCalls: 0,
      lastActiveAt: null,
    });
  });

  it("records the operator's default workspace on its deployed agents", async () => {
    const { token } = await h.account();
    const created = await h
      .http()
      .post('/api/agents')
      .set('Authorization', bearer(token))
      .send({ name: 'Homed' });
    const doc = await agents().findOne({ agentRef: created.body.agent.agentRef });
    const workspace = await h.runtime.documents.db
      .collection<{ _id: string }>('workspaces')
      .findOne({ ownerAccountId: doc!.accountId, isDefault: true });
    expect(workspace).not.toBeNull();
    expect(doc!.workspaceId).toBe(workspace!._id);
  });

  it('409 for a name the operator already uses (case-insensitive); another operator may use it', async () => {
    const a = await h.account();
    const b = await h.account();
    expect(
      (await h.http().post('/api/agents').set('Authorization', bearer(a.token)).send({ name: 'Shared' }))
        .status,
    ).toBe(201);
    const dup = await h
      .http()
      .post('/api/agents')
      .set('Authorization', bearer(a.token))
      .send({ name: 'SHARED' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', field: 'name' });
    expect(
      (await h.http().post('/api/agents').set('Authorization', bearer(b.token)).send({ name: 'Shared' }))
        .status,
    ).toBe(201);
  });

  it('404 for an unknown parentAgentRef', async () => {
    const { token } = await h.account();
    const res = await h
      .http()
      .post('/api/agents')
      .set('Authorization', bearer(token))
      .send({ name: 'Orphan', parentAgentRef: 'agref-doesnotexist' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Parent agent not found', code: 'NOT_FOUND', field: 'parentAgentRef' });
  });

  it.each([
    ['name missing', {}, 'name'],
    ['name blank', { name: ' ' }, 'name'],
    ['name too long', { name: 'n'.repeat(101) }, 'name'],
    ['description not a string', { name: 'ok', description: 5 }, 'description'],
    ['parentAgentRef empty', { name: 'ok', parentAgentRef: '' }, 'parentAgentRef'],
  ])('400 VALIDATION_ERROR: %s', async (_label, body, field) => {
    const { token } = await h.account();
    const res = await h.http().post('/api/agents').set('Authorization', bearer(token)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });

  it('403 for a self-registered agent (it has no operator account)', async () => {
    const reg = await h
      .http()
      .post('/register')
      .send({ name: uniqueName('Loner') });
    const res = await h.http().get('/api/agents').set('Authorization', bearer(reg.body.token));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});
