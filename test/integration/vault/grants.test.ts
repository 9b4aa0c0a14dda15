import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { panicFlagKey, WORKSPACE_PANIC_BROADCAST } from '../../../schemas/messages/tools';
import { eventually } from '../../support/async';
import { secretValue, seen, useVaultHarness, type Account } from './support/vault-harness';

/**
 * Runtime grants end to end on one runtime (in-process transport): `POST /api/vault/access`,
 * `POST /api/vault/runtime-grants/consume` with runtime credentials, single use under 100
 * concurrent consumes, cleanup, expiry (a movable clock and the sweep), rotation, disable, panic,
 * the audit log, credentials against user tokens, and tenant isolation. No value may leak.
 */

let a: Account;
let b: Account;
let runtimeA: string;
let runtimeB: string;
const values: string[] = [];
const s = useVaultHarness(values, { vault: { sweepIntervalMs: 100 } });

const bearer = (value: string) => `Bearer ${value}`;

/** Creates a secret and assigns it; resolves its id and value. */
async function secret(
  owner: Account,
  name: string,
  subject: { subjectType: string; subjectId: string } = { subjectType: 'skill', subjectId: 'web-search' },
): Promise<{ id: string; value: string }> {
  const value = secretValue(name);
  values.push(value);
  const res = await s.h.api.post('/api/vault', owner.auth, { name, value });
  expect(res.status).toBe(201);
  const id = res.body.secret.id as string;
  expect(
    (await s.h.api.post('/api/vault/assignments', owner.auth, { secretId: id, ...subject })).status,
  ).toBe(201);
  return { id, value };
}

const access = (owner: Account, name: string, extra: Record<string, unknown> = {}, auth = owner.auth) =>
  s.h.api.post('/api/vault/access', auth, {
    action: 'runtime',
    workspaceId: owner.workspaceId,
    secretName: name,
    subjectType: 'skill',
    subjectId: 'web-search',
    ...extra,
  });

async function grantId(owner: Account, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await access(owner, name, extra);
  expect(res.status).toBe(200);
  return res.body.grant.id as string;
}

const consume = (credential: string, grantId: string, action?: 'cleanup') =>
  s.h.api.consume(bearer(credential), { grantId, ...(action ? { action } : {}) });

const grantDoc = (id: string) =>
  s.h.runtime.documents.db
    .collection<{ _id: string; status: string; revokedReason?: string }>('vault_grants')
    .findOne({ _id: id });

/** A second workspace owned by `owner` (there is no route for workspaces yet). */
async function addWorkspace(owner: Account): Promise<string> {
  const id = `ws_${randomBytes(12).toString('hex')}`;
  await s.h.runtime.documents.db.collection<{ _id: string }>('workspaces').insertOne({
    _id: id,
    ownerAccountId: owner.accountId,
    name: 'Another workspace',
    isDefault: false,
    members: [{ accountId: owner.accountId, role: 'owner' }],
    createdAt: new Date(),
    version: 0,
  } as never);
  return id;
}

beforeAll(async () => {
  [a, b] = [await s.h.account(), await s.h.account()];
  [runtimeA, runtimeB] = [await s.h.credential(a), await s.h.credential(b)];
}, 60_000);

describe('access', () => {
  beforeAll(async () => {
    await secret(a, 'SEARCH_API_KEY');
  });

  it('grants an assigned, active secret: {granted, grant: {id, name, status, expiresAt}} (5 min default)', async () => {
    const before = s.h.clock.now().getTime();
    const res = await access(a, 'SEARCH_API_KEY');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      granted: true,
      grant: {
        id: expect.stringMatching(/^vgr_[0-9a-f]{32}$/),
        name: 'SEARCH_API_KEY',
        status: 'active',
        expiresAt: expect.any(String),
      },
    });
    const ttl = new Date(res.body.grant.expiresAt as string).getTime() - before;
    expect(ttl).toBeGreaterThanOrEqual(299_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
  });

  it.each([
    ['ttlSeconds 29', { ttlSeconds: 29 }, 'ttlSeconds'],
    ['ttlSeconds 901', { ttlSeconds: 901 }, 'ttlSeconds'],
    ['another action', { action: 'read' }, 'action'],
    ['an agent subject', { subjectType: 'agent' }, 'subjectType'],
    ['a bad secret name', { secretName: 'search-key' }, 'secretName'],
    ['no workspace', { workspaceId: undefined }, 'workspaceId'],
  ])('refuses %s (400)', async (_label, extra, path) => {
    const res = await access(a, 'SEARCH_API_KEY', extra);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ path })]);
  });

  it('takes ttlSeconds from 30 to 900', async () => {
    for (const ttlSeconds of [30, 900]) {
      const res = await access(a, 'SEARCH_API_KEY', { ttlSeconds });
      expect(res.status).toBe(200);
      const left = new Date(res.body.grant.expiresAt as string).getTime() - s.h.clock.now().getTime();
      expect(Math.abs(left - ttlSeconds * 1000)).toBeLessThan(2000);
    }
  });

  it('refuses (403 {granted: false, reason}) an unassigned subject, an unknown secret, another workspace', async () => {
    const second = await addWorkspace(a);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subjectId: 'other-skill' }, 'not_assigned'],
      [{ subjectType: 'app', subjectId: 'web-search' }, 'not_assigned'],
      [{ secretName: 'NO_SUCH_SECRET' }, 'secret_not_found'],
      [{ workspaceId: second }, 'secret_not_found'],
      [{ workspaceId: b.workspaceId }, 'workspace_not_found'],
      [{ workspaceId: 'ws_unknown' }, 'workspace_not_found'],
    ];
    for (const [extra, reason] of cases) {
      const res = await access(a, 'SEARCH_API_KEY', extra);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        granted: false,
        reason,
        code: 'PERMISSION_DENIED',
        error: expect.any(String),
      });
    }
  });

  it('refuses a disabled secret, and grants again once enabled', async () => {
    const { id } = await secret(a, 'TOGGLED_KEY');
    await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'disable' });
    const refused = await access(a, 'TOGGLED_KEY');
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('secret_disabled');
    await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'enable' });
    expect((await access(a, 'TOGGLED_KEY')).status).toBe(200);
  });

  it('an app needs its installation to approve secrets:<NAME>; appSlug checks the app a skill runs in', async () => {
    // The app store answers the check: an app requiring both secrets, published by `a`.
    const published = await s.h.api.post('/api/apps', a.auth, {
      slug: 'crm-sync',
      name: 'CRM Sync',
      category: 'Operations',
      description: 'Keeps the CRM in step.',
      manifest: {
        version: '1.0.0',
        entrypoint: 'index.html',
        requiredSecrets: ['CRM_TOKEN', 'SEARCH_API_KEY'],
      },
    });
    expect(published.status).toBe(201);
    await secret(a, 'CRM_TOKEN', { subjectType: 'app', subjectId: 'crm-sync' });
    const app = { subjectType: 'app', subjectId: 'crm-sync', secretName: 'CRM_TOKEN' };
    const missing = await access(a, 'CRM_TOKEN', app);
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ reason: 'app_permission_missing', granted: false });
    expect(missing.body.error).toContain('secrets:CRM_TOKEN');

    // Installing needs every required secret assigned to the app and approved.
    const listed = await s.h.api.get('/api/vault?search=SEARCH_API_KEY', a.auth);
    const searchId = listed.body.secrets.find((x: { name: string }) => x.name === 'SEARCH_API_KEY').id;
    await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId: searchId,
      subjectType: 'app',
      subjectId: 'crm-sync',
    });
    const installed = await s.h.api.post('/api/apps/install', a.auth, {
      slug: 'crm-sync',
      permissionsApproved: ['secrets:CRM_TOKEN', 'secrets:SEARCH_API_KEY'],
    });
    expect(installed.status).toBe(201);
    const approve = (permissionsApproved: string[]) =>
      s.h.api.patch('/api/apps/crm-sync/installation', a.auth, { permissionsApproved });
    await approve(['secrets:OTHER']);
    expect((await access(a, 'CRM_TOKEN', app)).status).toBe(403);
    await approve(['secrets:OTHER', 'secrets:CRM_TOKEN']);
    expect((await access(a, 'CRM_TOKEN', app)).status).toBe(200);
    // Another account's installation of the same app approves nothing for this one.
    await secret(b, 'CRM_TOKEN', { subjectType: 'app', subjectId: 'crm-sync' });
    expect((await access(b, 'CRM_TOKEN', app)).status).toBe(403);

    // A skill inside an app: the app's approval is checked too.
    const inApp = await access(a, 'SEARCH_API_KEY', { appSlug: 'crm-sync' });
    expect(inApp.status).toBe(403);
    expect(inApp.body.reason).toBe('app_permission_missing');
    await approve(['secrets:CRM_TOKEN', 'secrets:SEARCH_API_KEY']);
    expect((await access(a, 'SEARCH_API_KEY', { appSlug: 'crm-sync' })).status).toBe(200);
  });

  it('a workspace in panic lockdown gets no grant', async () => {
    await s.h.runtime.cache.set(panicFlagKey(a.workspaceId), '1', { ttlMs: 60_000 });
    const res = await access(a, 'SEARCH_API_KEY');
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('workspace_panic');
    await s.h.runtime.cache.delete(panicFlagKey(a.workspaceId));
    expect((await access(a, 'SEARCH_API_KEY')).status).toBe(200);
  });

  it('who may ask: the account, its agents, a token scoped app; not a token scoped elsewhere', async () => {
    const agent = await s.h.api.post('/api/agents', a.auth, {
      name: `Runner ${randomBytes(3).toString('hex')}`,
    });
    expect(agent.status).toBe(201);
    expect((await access(a, 'SEARCH_API_KEY', {}, bearer(agent.body.apiKey as string))).status).toBe(200);
    const appScoped = await s.h.api.post('/api/bearer-tokens', a.auth, { name: 'apps', scopes: ['app'] });
    expect((await access(a, 'SEARCH_API_KEY', {}, bearer(appScoped.body.bearerToken as string))).status).toBe(
      200,
    );
    const wf = await s.h.api.post('/api/bearer-tokens', a.auth, { name: 'wf', scopes: ['workflow'] });
    expect((await access(a, 'SEARCH_API_KEY', {}, bearer(wf.body.bearerToken as string))).status).toBe(403);
    expect((await access(a, 'SEARCH_API_KEY', {}, '')).status).toBe(401);
    const registered = await s.h.api.post('/register', undefined, {
      name: `Loner ${randomBytes(3).toString('hex')}`,
    });
    expect((await access(a, 'SEARCH_API_KEY', {}, bearer(registered.body.token as string))).status).toBe(403);
  });
});

describe('consume', () => {
  let value: string;

  beforeAll(async () => {
    value = (await secret(a, 'DB_PASSWORD')).value;
  });

  it('returns the value once; a second consume is 403; cleanup afterwards revokes', async () => {
    const id = await grantId(a, 'DB_PASSWORD');
    const first = await consume(runtimeA, id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ secret: { name: 'DB_PASSWORD', value }, grant: { id, status: 'consumed' } });
    const again = await consume(runtimeA, id);
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ code: 'PERMISSION_DENIED', reason: 'grant_consumed' });
    expect(again.body.error).toMatch(/already consumed/);
    const cleaned = await consume(runtimeA, id, 'cleanup');
    expect(cleaned.body).toEqual({ grant: { id, status: 'revoked' } });
    expect((await consume(runtimeA, id)).body.reason).toBe('grant_revoked');
  });

  it('100 parallel consumes of one grant: exactly one gets the value', async () => {
    const id = await grantId(a, 'DB_PASSWORD');
    const answers = await Promise.all(Array.from({ length: 100 }, () => consume(runtimeA, id)));
    const winners = answers.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0].body.secret.value).toBe(value);
    expect(answers.filter((r) => r.status === 403)).toHaveLength(99);
    expect(answers.filter((r) => r.text.includes(value))).toHaveLength(1);
    const consumed = await s.h.api.get('/api/vault/audit?event=consumed', a.auth);
    expect(consumed.body.entries.filter((e: { grantId: string }) => e.grantId === id)).toHaveLength(1);
  });

  it('cleanup revokes an active grant without the value, idempotently', async () => {
    const id = await grantId(a, 'DB_PASSWORD');
    const res = await consume(runtimeA, id, 'cleanup');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ grant: { id, status: 'revoked' } });
    expect((await consume(runtimeA, id, 'cleanup')).body).toEqual({ grant: { id, status: 'revoked' } });
    const after = await consume(runtimeA, id);
    expect(after.status).toBe(403);
    expect(after.body.reason).toBe('grant_revoked');
    expect(await grantDoc(id)).toMatchObject({ status: 'revoked', revokedReason: 'cleanup' });
  });

  it('after a rotation the next consume returns the new value (grants issued before included)', async () => {
    const { id: secretId } = await secret(a, 'ROTATING_KEY');
    const before = await grantId(a, 'ROTATING_KEY');
    const next = secretValue('ROTATED');
    values.push(next);
    await s.h.api.patch('/api/vault', a.auth, { secretId, action: 'rotate', value: next });
    expect((await consume(runtimeA, before)).body.secret.value).toBe(next);
    expect((await consume(runtimeA, await grantId(a, 'ROTATING_KEY'))).body.secret.value).toBe(next);
  });

  it('disabling or deleting a secret, or removing the assignment, revokes its active grants', async () => {
    const { id: secretId } = await secret(a, 'REVOKED_BY_OWNER');
    const g1 = await grantId(a, 'REVOKED_BY_OWNER');
    await s.h.api.patch('/api/vault', a.auth, { secretId, action: 'disable' });
    expect((await consume(runtimeA, g1)).body.reason).toBe('grant_revoked');
    expect(await grantDoc(g1)).toMatchObject({ status: 'revoked', revokedReason: 'secret_disabled' });
    await s.h.api.patch('/api/vault', a.auth, { secretId, action: 'enable' });
    const g2 = await grantId(a, 'REVOKED_BY_OWNER');
    await s.h.api.del(
      `/api/vault/assignments?secretId=${secretId}&subjectType=skill&subjectId=web-search`,
      a.auth,
    );
    expect(await grantDoc(g2)).toMatchObject({ status: 'revoked', revokedReason: 'unassigned' });
    await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId,
      subjectType: 'skill',
      subjectId: 'web-search',
    });
    const g3 = await grantId(a, 'REVOKED_BY_OWNER');
    await s.h.api.del(`/api/vault?secretId=${secretId}`, a.auth);
    expect((await consume(runtimeA, g3)).status).toBe(403);
    expect(await grantDoc(g3)).toMatchObject({ status: 'revoked', revokedReason: 'secret_deleted' });
  });

  it('an expired grant is refused (403 grant_expired), and the sweep marks the others expired', async () => {
    const refusedLater = await grantId(a, 'DB_PASSWORD', { ttlSeconds: 30 });
    const sweptLater = await grantId(a, 'DB_PASSWORD', { ttlSeconds: 30 });
    const stillValid = await grantId(a, 'DB_PASSWORD', { ttlSeconds: 120 });
    s.h.clock.advance(31_000);
    const res = await consume(runtimeA, refusedLater);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ reason: 'grant_expired', error: 'Grant expired: request a new grant' });
    await eventually(async () => (await grantDoc(sweptLater))?.status === 'expired', 8000);
    expect((await consume(runtimeA, sweptLater)).body.reason).toBe('grant_expired');
    expect((await consume(runtimeA, stillValid)).status).toBe(200);
    const expired = await s.h.api.get('/api/vault/audit?event=expired', a.auth);
    const ids = expired.body.entries.map((e: { grantId: string }) => e.grantId);
    expect(ids).toEqual(expect.arrayContaining([refusedLater, sweptLater]));
    expect(expired.body.entries[0].actor).toEqual({ kind: 'system', ref: 'expiry' });
    // The TTL index removes finished grants a grace period after their expiry.
    const indexes = await s.h.runtime.documents.db.collection('vault_grants').indexes();
    expect(indexes.find((i) => i.name === 'expires_ttl')).toMatchObject({ expireAfterSeconds: 86400 });
  });

  it('a panic in a workspace revokes its active grants (only those)', async () => {
    await secret(b, 'DB_PASSWORD');
    const inA = [await grantId(a, 'DB_PASSWORD'), await grantId(a, 'DB_PASSWORD')];
    const inB = await grantId(b, 'DB_PASSWORD');
    const consumedBefore = await grantId(a, 'DB_PASSWORD');
    expect((await consume(runtimeA, consumedBefore)).status).toBe(200);
    // Lifting a panic (active: false) and a session's panic revoke nothing.
    await s.h.runtime.system.broadcast(WORKSPACE_PANIC_BROADCAST, {
      workspaceId: a.workspaceId,
      active: false,
    });
    await s.h.runtime.system.broadcast(WORKSPACE_PANIC_BROADCAST, {
      workspaceId: a.workspaceId,
      sessionId: 's1',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await grantDoc(inA[0]))?.status).toBe('active');

    await s.h.runtime.system.broadcast(WORKSPACE_PANIC_BROADCAST, { workspaceId: a.workspaceId });
    for (const id of inA) {
      await eventually(async () => (await grantDoc(id))?.status === 'revoked', 8000);
      expect(await grantDoc(id)).toMatchObject({ revokedReason: 'panic' });
      expect((await consume(runtimeA, id)).body.reason).toBe('grant_revoked');
    }
    expect((await grantDoc(consumedBefore))?.status).toBe('consumed');
    expect((await consume(runtimeB, inB)).status).toBe(200);
    // The audit entries follow the bulk revocation (written after it): wait for them too.
    const byPanic = await eventually(async () => {
      const revoked = await s.h.api.get('/api/vault/audit?event=revoked', a.auth);
      const entries = revoked.body.entries.filter((e: { reason?: string }) => e.reason === 'panic');
      const ids = new Set(entries.map((e: { grantId: string }) => e.grantId));
      return inA.every((id) => ids.has(id)) ? entries : false;
    }, 8000);
    // Every grant still active in the workspace (earlier tests left some): these two among them.
    const ids = byPanic.map((e: { grantId: string }) => e.grantId);
    expect(ids).toEqual(expect.arrayContaining(inA));
    expect(ids).not.toContain(inB);
    expect(ids).not.toContain(consumedBefore);
    expect(new Set(ids).size).toBe(ids.length);
    expect(byPanic[0].actor).toEqual({ kind: 'system', ref: 'panic' });
    const stillActive = await s.h.runtime.documents.db
      .collection('vault_grants')
      .countDocuments({ workspaceId: a.workspaceId, status: 'active' });
    expect(stillActive).toBe(0);
  });
});

describe('runtime credentials', () => {
  it('mints (201): revealed once, stored as a hash; listed masked; needs access_sdk', async () => {
    const res = await s.h.api.post('/api/sdk/credentials', a.auth, { name: 'kernel-1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      credential: {
        id: expect.stringMatching(/^sdc_[0-9a-f]{24}$/),
        name: 'kernel-1',
        scopes: ['vault:consume', 'vault:cleanup'],
        workspaceId: null,
        expiresAt: null,
        createdAt: expect.any(String),
        maskedValue: expect.stringMatching(/^sdk_[0-9a-f]{4}\.\.\.[0-9a-f]{6}$/),
        status: 'active',
        lastUsedAt: null,
      },
      value: expect.stringMatching(/^sdk_[0-9a-f]{24}_[0-9a-f]{64}$/),
      oneTimeReveal: true,
    });
    const value = res.body.value as string;
    values.push(value);
    expect(value.startsWith(`sdk_${(res.body.credential.id as string).slice(4)}_`)).toBe(true);
    const doc = await s.h.runtime.documents.db
      .collection('sdk_credentials')
      .findOne({ _id: res.body.credential.id });
    expect(JSON.stringify(doc)).not.toContain(value.slice(29));
    const list = await s.h.api.get('/api/sdk/credentials', a.auth);
    expect(list.body.credentials.map((c: { name: string }) => c.name)).toContain('kernel-1');
    expect(list.text).not.toContain(value);
    expect((await s.h.api.post('/api/sdk/credentials', a.auth, { name: 'KERNEL-1' })).status).toBe(409);

    const retail = await s.h.account('retail_pro');
    const refused = await s.h.api.post('/api/sdk/credentials', retail.auth, { name: 'nope' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Plan capability required: access_sdk');
  });

  it('validates: past expiresAt, unknown scope, foreign workspace', async () => {
    const past = await s.h.api.post('/api/sdk/credentials', a.auth, {
      name: 'old',
      expiresAt: '2001-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(
      (await s.h.api.post('/api/sdk/credentials', a.auth, { name: 's', scopes: ['vault:read'] })).status,
    ).toBe(400);
    expect((await s.h.api.post('/api/sdk/credentials', a.auth, { name: 's', scopes: [] })).status).toBe(400);
    const foreign = await s.h.api.post('/api/sdk/credentials', a.auth, {
      name: 'w',
      workspaceId: b.workspaceId,
    });
    expect(foreign.status).toBe(404);
  });

  it('the consume route takes runtime credentials only: user tokens and sessions are 401', async () => {
    await secret(a, 'ONLY_RUNTIME');
    const id = await grantId(a, 'ONLY_RUNTIME');
    const agent = await s.h.api.post('/api/agents', a.auth, {
      name: `Agent ${randomBytes(3).toString('hex')}`,
    });
    const named = await s.h.api.post('/api/bearer-tokens', a.auth, {
      name: `n-${randomBytes(3).toString('hex')}`,
    });
    for (const auth of [
      undefined,
      a.auth,
      bearer(agent.body.apiKey as string),
      bearer(named.body.bearerToken as string),
      'Basic dXNlcjpwYXNz',
      bearer(`sdk_${'0'.repeat(24)}_${'0'.repeat(64)}`),
      bearer(`${runtimeA.slice(0, -4)}beef`),
      bearer('sdk_short'),
    ]) {
      const res = await s.h.api.consume(auth, { grantId: id });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    // A browser session (cookie) is not a runtime credential either.
    const browser = request.agent(s.h.runtime.http!.url);
    await browser.post('/api/signup').send({
      email: `cookie-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
      accountType: 'enterprise',
      selectedPlan: 'enterprise_plus',
    });
    const viaCookie = await browser.post('/api/vault/runtime-grants/consume').send({ grantId: id });
    seen.push({ url: 'cookie consume', status: viaCookie.status, text: viaCookie.text, reveals: false });
    expect(viaCookie.status).toBe(401);
    // The grant is untouched by all of that.
    expect((await consume(runtimeA, id)).status).toBe(200);
  });

  it('validation, unknown grants (404) and another account’s grant (404)', async () => {
    expect((await s.h.api.consume(bearer(runtimeA), {})).status).toBe(400);
    expect((await s.h.api.consume(bearer(runtimeA), { grantId: 'x', action: 'peek' })).status).toBe(400);
    expect((await consume(runtimeA, 'vgr_nope')).status).toBe(404);
    expect((await consume(runtimeA, `vgr_${'0'.repeat(32)}`)).status).toBe(404);
    const id = await grantId(a, 'ONLY_RUNTIME');
    const foreign = await consume(runtimeB, id);
    expect(foreign.status).toBe(404);
    expect((await consume(runtimeB, id, 'cleanup')).status).toBe(404);
    expect((await consume(runtimeA, id)).status).toBe(200);
  });

  it('scopes and workspace restrictions of a credential apply', async () => {
    const cleanupOnly = await s.h.credential(a, { scopes: ['vault:cleanup'] });
    values.push(cleanupOnly);
    const id = await grantId(a, 'ONLY_RUNTIME');
    const refused = await consume(cleanupOnly, id);
    expect(refused.status).toBe(403);
    expect(refused.body.requiredScope).toBe('vault:consume');
    expect((await consume(cleanupOnly, id, 'cleanup')).body.grant.status).toBe('revoked');

    const second = await addWorkspace(a);
    const elsewhere = await s.h.credential(a, { workspaceId: second });
    values.push(elsewhere);
    const g = await grantId(a, 'ONLY_RUNTIME');
    expect((await consume(elsewhere, g)).status).toBe(403);
    const pinned = await s.h.credential(a, { workspaceId: a.workspaceId });
    values.push(pinned);
    expect((await consume(pinned, g)).status).toBe(200);
  });

  it('revoked, expired, and downgraded-plan credentials stop working', async () => {
    const created = await s.h.api.post('/api/sdk/credentials', a.auth, { name: 'short-lived' });
    const value = created.body.value as string;
    values.push(value);
    const credentialId = created.body.credential.id as string;
    expect((await consume(value, await grantId(a, 'ONLY_RUNTIME'))).status).toBe(200);
    const listed = await s.h.api.get('/api/sdk/credentials', a.auth);
    const used = listed.body.credentials.find((c: { id: string }) => c.id === credentialId);
    expect(used.lastUsedAt).toEqual(expect.any(String));
    const revoked = await s.h.api.del(`/api/sdk/credentials?credentialId=${credentialId}`, a.auth);
    expect(revoked.body).toEqual({
      revoked: true,
      credential: expect.objectContaining({ status: 'revoked' }),
    });
    expect((await s.h.api.del(`/api/sdk/credentials?credentialId=${credentialId}`, a.auth)).status).toBe(200);
    expect((await s.h.api.del(`/api/sdk/credentials?credentialId=${credentialId}`, b.auth)).status).toBe(404);
    const afterRevoke = await consume(value, await grantId(a, 'ONLY_RUNTIME'));
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.error).toBe('Runtime credential revoked');

    const expiring = await s.h.credential(a, {
      expiresAt: new Date(s.h.clock.now().getTime() + 60_000).toISOString(),
    });
    values.push(expiring);
    s.h.clock.advance(61_000);
    const expired = await consume(expiring, await grantId(a, 'ONLY_RUNTIME'));
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('Runtime credential expired');

    const c = await s.h.account();
    const cCredential = await s.h.credential(c);
    values.push(cCredential);
    await secret(c, 'ONLY_RUNTIME');
    const g = await grantId(c, 'ONLY_RUNTIME');
    await s.h.api.post('/api/plans/transition', c.auth, { newPlan: 'retail_pro' });
    const downgraded = await consume(cCredential, g);
    expect(downgraded.status).toBe(403);
    expect(downgraded.body.error).toBe('Plan capability required: access_sdk');
  });
});

describe('audit of runtime events', () => {
  it('records granted, denied, consumed, cleaned with who did it (public references only)', async () => {
    const c = await s.h.account();
    const credentialRes = await s.h.api.post('/api/sdk/credentials', c.auth, { name: 'auditor' });
    const credential = credentialRes.body.value as string;
    values.push(credential);
    await secret(c, 'AUDITED_KEY');
    const agent = await s.h.api.post('/api/agents', c.auth, {
      name: `Auditee ${randomBytes(3).toString('hex')}`,
    });
    const g1 = await access(c, 'AUDITED_KEY', {}, bearer(agent.body.apiKey as string));
    expect(g1.status).toBe(200);
    await consume(credential, g1.body.grant.id as string);
    await consume(credential, g1.body.grant.id as string);
    const g2 = await grantId(c, 'AUDITED_KEY');
    await consume(credential, g2, 'cleanup');
    await access(c, 'AUDITED_KEY', { subjectId: 'stranger' });

    const res = await s.h.api.get('/api/vault/audit', c.auth);
    const runtimeEvents = res.body.entries.filter(
      (e: { event: string }) => !['created', 'assigned'].includes(e.event),
    );
    expect(runtimeEvents.map((e: { event: string; reason?: string }) => [e.event, e.reason])).toEqual([
      ['denied', 'not_assigned'],
      ['cleaned', undefined],
      ['granted', undefined],
      ['denied', 'grant_consumed'],
      ['consumed', undefined],
      ['granted', undefined],
    ]);
    const [deniedAccess, cleaned, , deniedConsume, consumed, grantedToAgent] = runtimeEvents;
    expect(grantedToAgent).toMatchObject({
      grantId: g1.body.grant.id,
      secretName: 'AUDITED_KEY',
      subjectType: 'skill',
      subjectId: 'web-search',
      workspaceId: c.workspaceId,
      actor: { kind: 'agent', via: 'bearer', ref: agent.body.agent.agentRef },
    });
    const runtimeRef = { kind: 'runtime', ref: credentialRes.body.credential.id };
    expect(consumed.actor).toEqual(runtimeRef);
    expect(deniedConsume.actor).toEqual(runtimeRef);
    expect(cleaned).toMatchObject({ grantId: g2, actor: runtimeRef });
    expect(deniedAccess).toMatchObject({ subjectId: 'stranger', actor: { kind: 'account', via: 'bearer' } });
    expect(res.text).not.toMatch(/acc_[0-9a-f]{24}|agt_/);
    const onlyWs = await s.h.api.get(`/api/vault/audit?workspaceId=${c.workspaceId}&event=granted`, c.auth);
    expect(onlyWs.body.entries).toHaveLength(2);
  });
});
