import { agentsCollection } from '../../../actors/identity/agents.collection';
import { namedTokensCollection } from '../../../actors/identity/named-tokens.collection';
import { bearer, startIdentityHarness, type IdentityHarness } from './support/identity-harness';
import { subjectOf } from '../../support/token-claims';

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentityHarness();
});
afterAll(async () => {
  await h.stop();
});

const TOKENS = '/api/bearer-tokens';

/** Internal account id behind an account token (test-only knowledge). */
const accountIdOf = (token: string) => subjectOf(token, h.runtime.secrets.jwtSecret);

describe('account B can see and change nothing of account A', () => {
  let a: { token: string; auth: string };
  let b: { token: string; auth: string };
  let aAgent: { agentRef: string; name: string };
  let aToken: { id: string; name: string };
  let aTokenValue: string;

  beforeAll(async () => {
    const [ra, rb] = [await h.account(), await h.account()];
    a = { token: ra.token, auth: bearer(ra.token) };
    b = { token: rb.token, auth: bearer(rb.token) };
    aAgent = (await h.http().post('/api/agents').set('Authorization', a.auth).send({ name: 'A-agent' })).body
      .agent;
    const created = await h
      .http()
      .post(TOKENS)
      .set('Authorization', a.auth)
      .send({ name: 'A-token', scopes: ['api'] });
    aToken = created.body.token;
    aTokenValue = created.body.bearerToken;
    await h.http().post('/api/agents').set('Authorization', b.auth).send({ name: 'B-agent' });
    await h.http().post(TOKENS).set('Authorization', b.auth).send({ name: 'B-token' });
  });

  it("lists only the caller's agents and tokens", async () => {
    const agents = await h.http().get('/api/agents').set('Authorization', b.auth);
    expect(agents.body.agents.map((x: { name: string }) => x.name)).toEqual(['B-agent']);
    const tokens = await h.http().get(TOKENS).set('Authorization', b.auth);
    expect(tokens.body.tokens.map((x: { name: string }) => x.name)).toEqual(['B-token']);
    // A's named token and A's agent key see A's side only.
    const viaNamed = await h.http().get('/api/agents').set('Authorization', bearer(aTokenValue));
    expect(viaNamed.body.agents.map((x: { name: string }) => x.name)).toEqual(['A-agent']);
  });

  it("cannot make a subagent of A's agent: 404, exactly as for an agentRef that does not exist", async () => {
    const res = await h
      .http()
      .post('/api/agents')
      .set('Authorization', b.auth)
      .send({ name: 'Cuckoo', parentAgentRef: aAgent.agentRef });
    const unknown = await h
      .http()
      .post('/api/agents')
      .set('Authorization', b.auth)
      .send({ name: 'Cuckoo', parentAgentRef: 'agref-AAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(unknown.body);
    expect(await h.runtime.documents.repository(agentsCollection).count({ name: 'Cuckoo' })).toBe(0);
  });

  it("cannot rotate, rename, rescope, revoke or delete A's token: 404, and nothing changes", async () => {
    const repo = h.runtime.documents.repository(namedTokensCollection);
    const before = await repo.findById(aToken.id);
    for (const body of [
      { id: aToken.id, action: 'rotate' },
      { id: aToken.id, action: 'revoke' },
      { id: aToken.id, name: 'pwned' },
      { id: aToken.id, scopes: [] },
    ]) {
      const res = await h.http().patch(TOKENS).set('Authorization', b.auth).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Token not found', code: 'NOT_FOUND', field: 'id' });
    }
    expect((await h.http().delete(TOKENS).set('Authorization', b.auth).send({ id: aToken.id })).status).toBe(
      404,
    );
    expect((await h.http().delete(`${TOKENS}?id=${aToken.id}`).set('Authorization', b.auth)).status).toBe(
      404,
    );
    expect(await repo.findById(aToken.id)).toEqual(before);
    expect((await h.http().get(TOKENS).set('Authorization', bearer(aTokenValue))).status).toBe(200);
  });

  it("cannot reuse A's names against A: names are per account", async () => {
    expect(
      (await h.http().post('/api/agents').set('Authorization', b.auth).send({ name: 'A-agent' })).status,
    ).toBe(201);
    expect((await h.http().post(TOKENS).set('Authorization', b.auth).send({ name: 'A-token' })).status).toBe(
      201,
    );
    expect((await h.http().get('/api/agents').set('Authorization', a.auth)).body.agents).toHaveLength(1);
  });

  it("the actors refuse a message for A's account carrying B's principal (defence in depth)", async () => {
    const accountA = accountIdOf(a.token);
    const principalB = { subjectType: 'account', accountId: accountIdOf(b.token), via: 'bearer' };
    for (const [to, type, body] of [
      [`named-tokens:${accountA}`, 'named-tokens.list', {}],
      [`named-tokens:${accountA}`, 'named-tokens.revoke', { id: aToken.id }],
      [`agents:${accountA}`, 'agents.list', {}],
      [`agents:${accountA}`, 'agents.create', { name: 'Injected' }],
    ] as const) {
      await expect(h.runtime.system.ask(to, type, body, { auth: principalB })).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      await expect(h.runtime.system.ask(to, type, body)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });
});
