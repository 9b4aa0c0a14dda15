import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { secretValue, useVaultHarness, type Account } from './support/vault-harness';

/**
 * Rate limits of the vault's runtime routes (docs/vault.md, "Rate limits"): `POST
 * /api/vault/access` per account (its agents share the budget), `POST
 * /api/vault/runtime-grants/consume` per verified runtime credential. 429 `RATE_LIMITED` with
 * `Retry-After`; a forged credential never spends a real one's budget.
 */
describe('vault rate limits', () => {
  const values: string[] = [];
  const LIMIT = 3;
  const s = useVaultHarness(values, {
    env: { VAULT_ACCESS_PER_MINUTE: String(LIMIT), VAULT_CONSUME_PER_MINUTE: String(LIMIT) },
  });

  const accessBody = (owner: Account) => ({
    action: 'runtime',
    workspaceId: owner.workspaceId,
    secretName: 'LIMITED_KEY',
    subjectType: 'skill',
    subjectId: 'limited-skill',
  });

  const expect429 = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  };

  it('limits runtime-grant requests per account; its agents share the budget, other accounts do not', async () => {
    const a = await s.h.account();
    const b = await s.h.account();
    const value = secretValue('LIMITED');
    values.push(value);
    const created = await s.h.api.post('/api/vault', a.auth, { name: 'LIMITED_KEY', value });
    expect(created.status).toBe(201);
    const assigned = await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId: created.body.secret.id,
      subjectType: 'skill',
      subjectId: 'limited-skill',
    });
    expect(assigned.status).toBe(201);
    const agent = await s.h.api.post('/api/agents', a.auth, { name: 'limited-bot' });
    expect(agent.status).toBe(201);
    const agentAuth = `Bearer ${agent.body.apiKey as string}`;

    // Two grants as the account, one as its agent: the budget of 3 is spent.
    expect((await s.h.grant(a, accessBody(a))).status).toBe(200);
    expect((await s.h.grant(a, accessBody(a))).status).toBe(200);
    expect((await s.h.api.post('/api/vault/access', agentAuth, accessBody(a))).status).toBe(200);
    expect429(await s.h.grant(a, accessBody(a)));
    expect429(await s.h.api.post('/api/vault/access', agentAuth, accessBody(a)));
    // Another account is not affected (its refusal is its own 403, not a 429).
    const other = await s.h.grant(b, accessBody(b));
    expect(other.status).toBe(403);
    expect(other.body.reason).toBe('secret_not_found');
  });

  it('limits consume per runtime credential; a forged credential does not spend it', async () => {
    const owner = await s.h.account();
    const [one, two, three] = [
      await s.h.credential(owner),
      await s.h.credential(owner),
      await s.h.credential(owner),
    ];
    const unknownGrant = () => `vgr_${randomBytes(16).toString('hex')}`;
    const consume = (credential: string) =>
      s.h.api.consume(`Bearer ${credential}`, { grantId: unknownGrant() });

    // Counted whatever the outcome (here 404: no such grant).
    for (let i = 0; i < LIMIT; i++) expect((await consume(one)).status).toBe(404);
    expect429(await consume(one));
    expect429(await s.h.api.consume(`Bearer ${one}`, { grantId: unknownGrant(), action: 'cleanup' }));
    // Another credential of the same account has its own budget.
    expect((await consume(two)).status).toBe(404);

    // Someone who knows the third credential's id but not its secret: 401, nothing spent.
    const forged = `${three.slice(0, three.lastIndexOf('_') + 1)}${randomBytes(32).toString('hex')}`;
    for (let i = 0; i < LIMIT + 2; i++) expect((await consume(forged)).status).toBe(401);
    for (let i = 0; i < LIMIT; i++) expect((await consume(three)).status).toBe(404);
    expect429(await consume(three));
  });
});
