import { TokenService } from '../../../actors/identity/token-service';
import { Collection } from 'mongodb';
import { namedTokensCollection } from '../../../actors/identity/named-tokens.collection';
import { bearer, eventually, startIdentityHarness, type IdentityHarness } from './support/identity-harness';
import { claimsOf, subjectOf } from '../../support/token-claims';

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentityHarness();
});
afterAll(async () => {
  await h.stop();
});

const PATH = '/api/bearer-tokens';
const tokensRepo = () => h.runtime.documents.repository(namedTokensCollection);

/** The default workspace signup provisioned for the account behind `auth` (test-only lookup by internal id). */
async function workspaceOf(auth: string): Promise<string> {
  const accountId = subjectOf(auth.slice('Bearer '.length), h.runtime.secrets.jwtSecret);
  const found = await h.runtime.documents.db
    .collection<{ _id: string }>('workspaces')
    .findOne({ ownerAccountId: accountId, isDefault: true });
  if (!found) throw new Error('signup provisioned no default workspace');
  return found._id;
}

/** A fresh account and helpers bound to it. */
async function operator() {
  const { token } = await h.account();
  const auth = bearer(token);
  return {
    auth,
    create: (body: object) => h.http().post(PATH).set('Authorization', auth).send(body),
    list: () => h.http().get(PATH).set('Authorization', auth),
    patch: (body: object) => h.http().patch(PATH).set('Authorization', auth).send(body),
    remove: (body: object) => h.http().delete(PATH).set('Authorization', auth).send(body),
  };
}

describe('POST /api/bearer-tokens', () => {
  it('201: the token record, the value revealed once, masked as first 8 ... last 6', async () => {
    const op = await operator();
    const res = await op.create({ name: 'ci deploy' });
    expect(res.status).toBe(201);
    const value = res.body.bearerToken as string;
    expect(res.body).toEqual({
      token: {
        id: expect.stringMatching(/^ntk_[a-f0-9]{24}$/),
        name: 'ci deploy',
        workspaceId: null,
        projectId: null,
        scopes: [],
        maskedToken: `${value.slice(0, 8)}...${value.slice(-6)}`,
        status: 'live',
        lastUsedAt: null,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
      },
      bearerToken: value,
      oneTimeReveal: true,
    });
    const claims = claimsOf(value, h.runtime.secrets.jwtSecret);
    expect(claims).toMatchObject({ typ: 'named', tid: res.body.token.id, acc: expect.any(String) });
    expect(claims.scopes).toBeUndefined();
    // The value is not stored anywhere: only its jti and the masked form.
    const doc = await tokensRepo().findById(res.body.token.id);
    expect(JSON.stringify(doc)).not.toContain(value);
    expect(doc).toMatchObject({
      jti: claims.jti,
      status: 'live',
      audit: [expect.objectContaining({ action: 'created' })],
    });
    // The listing never shows the value again.
    const list = await op.list();
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ tokens: [res.body.token] });
    expect(JSON.stringify(list.body)).not.toContain(value);
  });

  it('keeps workspaceId, projectId and the scopes (deduplicated, in canonical order)', async () => {
    const op = await operator();
    const workspaceId = await workspaceOf(op.auth);
    const res = await op.create({
      name: 'scoped',
      workspaceId,
      projectId: 'prj-7',
      scopes: ['api', 'workspace', 'api'],
    });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatchObject({ workspaceId, projectId: 'prj-7', scopes: ['workspace', 'api'] });
    expect(claimsOf(res.body.bearerToken, h.runtime.secrets.jwtSecret).scopes).toEqual(['workspace', 'api']);
  });

  it("404 for a workspaceId that is not one of the account's workspaces", async () => {
    const op = await operator();
    const other = await operator();
    for (const workspaceId of ['ws_unknown', await workspaceOf(other.auth)]) {
      const res = await op.create({ name: `in ${workspaceId}`, workspaceId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Workspace not found', code: 'NOT_FOUND', field: 'workspaceId' });
    }
  });

  it.each([
    ['name missing', {}, 'name'],
    ['name blank', { name: '  ' }, 'name'],
    ['name too long', { name: 'n'.repeat(101) }, 'name'],
    ['scopes not an array', { name: 'x', scopes: 'api' }, 'scopes'],
    ['an unknown scope', { name: 'x', scopes: ['api', 'root'] }, 'scopes[1]'],
    ['workspaceId not an id', { name: 'x', workspaceId: 'ws 1' }, 'workspaceId'],
    ['projectId too long', { name: 'x', projectId: 'p'.repeat(201) }, 'projectId'],
  ])('400 VALIDATION_ERROR: %s', async (_label, body, field) => {
    const op = await operator();
    const res = await op.create(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });

  it('409 for a name already used by a live token (case-insensitive); free again once revoked', async () => {
    const op = await operator();
    const first = await op.create({ name: 'Nightly' });
    const dup = await op.create({ name: 'NIGHTLY' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', field: 'name' });
    expect((await op.remove({ id: first.body.token.id })).status).toBe(200);
    expect((await op.create({ name: 'Nightly' })).status).toBe(201);
  });

  it('401 without credentials, on every method', async () => {
    expect((await h.http().get(PATH)).status).toBe(401);
    expect((await h.http().post(PATH).send({ name: 'x' })).status).toBe(401);
    expect((await h.http().patch(PATH).send({ id: 'x', action: 'revoke' })).status).toBe(401);
    expect((await h.http().delete(PATH).send({ id: 'x' })).status).toBe(401);
  });

  it('403 for an agent key: named tokens are managed by the account', async () => {
    const op = await operator();
    const agent = await h.http().post('/api/agents').set('Authorization', op.auth).send({ name: 'Minion' });
    const res = await h.http().get(PATH).set('Authorization', bearer(agent.body.apiKey));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});

describe('using a named token', () => {
  it('an unscoped named token acts for its account', async () => {
    const op = await operator();
    const created = await op.create({ name: 'all' });
    const res = await h.http().get(PATH).set('Authorization', bearer(created.body.bearerToken));
    expect(res.status).toBe(200);
    expect(res.body.tokens.map((t: { name: string }) => t.name)).toEqual(['all']);
  });

  it('lastUsedAt is maintained without a write per request (20 requests: 1 write)', async () => {
    const op = await operator();
    const created = await op.create({ name: 'hot' });
    const auth = bearer(created.body.bearerToken);
    const updates = jest.spyOn(Collection.prototype, 'updateOne');
    const finds = jest.spyOn(Collection.prototype, 'findOne');
    try {
      for (let i = 0; i < 20; i++)
        expect((await h.http().get('/api/agents').set('Authorization', auth)).status).toBe(200);
      const used = await eventually(
        async () => (await tokensRepo().findById(created.body.token.id))!.lastUsedAt,
      );
      expect(used.getTime()).toBeGreaterThan(Date.now() - 60_000);
      const on = (spy: jest.SpyInstance) =>
        spy.mock.contexts.filter((c) => (c as Collection).collectionName === 'named_tokens').length;
      expect(on(updates)).toBe(1);
      // The record is read from the cache: no document read per request either.
      expect(on(finds)).toBeLessThanOrEqual(2);
    } finally {
      updates.mockRestore();
      finds.mockRestore();
    }
    const listed = await op.list();
    expect(listed.body.tokens[0].lastUsedAt).toBe(
      (await tokensRepo().findById(created.body.token.id))!.lastUsedAt!.toISOString(),
    );
  });
});

describe('PATCH /api/bearer-tokens', () => {
  it('rotate: a new value revealed once, the old one refused at once everywhere', async () => {
    const op = await operator();
    const created = await op.create({ name: 'rotating', scopes: ['api'] });
    const old = created.body.bearerToken as string;
    const res = await op.patch({ id: created.body.token.id, action: 'rotate' });
    expect(res.status).toBe(200);
    const fresh = res.body.bearerToken as string;
    expect(res.body).toEqual({
      token: expect.objectContaining({
        id: created.body.token.id,
        name: 'rotating',
        status: 'live',
        scopes: ['api'],
      }),
      bearerToken: expect.any(String),
      oneTimeReveal: true,
    });
    expect(fresh).not.toBe(old);
    expect(res.body.token.maskedToken).toBe(`${fresh.slice(0, 8)}...${fresh.slice(-6)}`);
    for (const path of [PATH, '/api/agents']) {
      const refused = await h.http().get(path).set('Authorization', bearer(old));
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('UNAUTHORIZED');
    }
    expect((await h.http().get(PATH).set('Authorization', bearer(fresh))).status).toBe(200);
    const doc = await tokensRepo().findById(created.body.token.id);
    expect(doc!.audit.map((a) => a.action)).toEqual(['created', 'rotated']);
  });

  it('refuses a value of the token that is not its current one, even one no revocation names', async () => {
    const op = await operator();
    const created = await op.create({ name: 'current only', scopes: ['api'] });
    const accountId = subjectOf(created.body.bearerToken as string, h.runtime.secrets.jwtSecret);
    // A genuine signature for this token id, but not the value the record holds (its jti differs).
    const other = new TokenService(h.runtime.secrets.jwtSecret, h.runtime.cache).issue({
      sub: accountId,
      typ: 'named',
      tid: created.body.token.id as string,
      acc: accountId,
      scopes: ['api'],
    });
    const res = await h.http().get(PATH).set('Authorization', bearer(other.token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Bearer token revoked', code: 'UNAUTHORIZED' });
    expect((await h.http().get(PATH).set('Authorization', bearer(created.body.bearerToken))).status).toBe(
      200,
    );
  });

  it('revoke: status revoked, the value refused at once, the audit trail kept; later changes are 409', async () => {
    const op = await operator();
    const created = await op.create({ name: 'doomed' });
    const value = created.body.bearerToken as string;
    expect((await h.http().get(PATH).set('Authorization', bearer(value))).status).toBe(200);
    const res = await op.patch({ id: created.body.token.id, action: 'revoke' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: expect.objectContaining({ status: 'revoked', revokedAt: expect.any(String) }),
      oneTimeReveal: false,
    });
    for (const path of [PATH, '/api/agents', '/agent/me']) {
      expect((await h.http().get(path).set('Authorization', bearer(value))).status).toBe(401);
    }
    const listed = await op.list();
    expect(listed.body.tokens).toEqual([
      expect.objectContaining({ id: created.body.token.id, status: 'revoked' }),
    ]);
    const doc = await tokensRepo().findById(created.body.token.id);
    expect(doc!.audit.map((a) => a.action)).toEqual(['created', 'revoked']);
    expect(doc!.audit[1].by).toMatchObject({ subjectType: 'account', via: 'bearer' });

    for (const change of [{ action: 'rotate' }, { name: 'reborn' }, { scopes: ['api'] }]) {
      const refused = await op.patch({ id: created.body.token.id, ...change });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CONFLICT');
    }
    // Revoking again is harmless and adds nothing to the audit trail.
    expect((await op.patch({ id: created.body.token.id, action: 'revoke' })).status).toBe(200);
    expect((await tokensRepo().findById(created.body.token.id))!.audit).toHaveLength(2);
  });

  it('rename: the name changes, no value is revealed; a live name is 409', async () => {
    const op = await operator();
    const a = await op.create({ name: 'alpha' });
    await op.create({ name: 'beta' });
    const res = await op.patch({ id: a.body.token.id, name: 'gamma' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.objectContaining({ name: 'gamma' }), oneTimeReveal: false });
    const clash = await op.patch({ id: a.body.token.id, name: 'Beta' });
    expect(clash.status).toBe(409);
    expect(clash.body.field).toBe('name');
    // Changing only the case of its own name is fine.
    expect((await op.patch({ id: a.body.token.id, name: 'Gamma' })).body.token.name).toBe('Gamma');
  });

  it('rescope: takes effect for the value already issued', async () => {
    const op = await operator();
    const created = await op.create({ name: 'narrow', scopes: ['workspace'] });
    const auth = bearer(created.body.bearerToken);
    const denied = await h.http().get(PATH).set('Authorization', auth);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PERMISSION_DENIED', requiredScopes: ['api'] });
    expect(denied.body.error).toContain('"api"');

    const res = await op.patch({ id: created.body.token.id, scopes: ['api'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.objectContaining({ scopes: ['api'] }), oneTimeReveal: false });
    expect((await h.http().get(PATH).set('Authorization', auth)).status).toBe(200);

    // And back: narrowing applies at once too.
    await op.patch({ id: created.body.token.id, scopes: ['workflow'] });
    expect((await h.http().get(PATH).set('Authorization', auth)).status).toBe(403);
    // [] = unrestricted.
    await op.patch({ id: created.body.token.id, scopes: [] });
    expect((await h.http().get(PATH).set('Authorization', auth)).status).toBe(200);
    const doc = await tokensRepo().findById(created.body.token.id);
    expect(doc!.audit.map((a) => a.action)).toEqual(['created', 'rescoped', 'rescoped', 'rescoped']);
  });

  it.each([
    ['id missing', { action: 'rotate' }, 'id'],
    ['nothing to change', { id: 'ntk_x' }, ''],
    ['an unknown action', { id: 'ntk_x', action: 'explode' }, 'action'],
    ['revoke with a rename', { id: 'ntk_x', action: 'revoke', name: 'x' }, 'action'],
    ['an unknown scope', { id: 'ntk_x', scopes: ['everything'] }, 'scopes[0]'],
    ['a blank name', { id: 'ntk_x', name: '' }, 'name'],
  ])('400 VALIDATION_ERROR: %s', async (_label, body, field) => {
    const op = await operator();
    const res = await op.patch(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });

  it('404 for an unknown id', async () => {
    const op = await operator();
    const res = await op.patch({ id: 'ntk_000000000000000000000000', action: 'rotate' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('DELETE /api/bearer-tokens', () => {
  it('revokes by JSON body or ?id=, keeps the record for audit', async () => {
    const op = await operator();
    const a = await op.create({ name: 'by-body' });
    const b = await op.create({ name: 'by-query' });
    const byBody = await op.remove({ id: a.body.token.id });
    expect(byBody.status).toBe(200);
    expect(byBody.body).toEqual({
      revoked: true,
      token: expect.objectContaining({ id: a.body.token.id, status: 'revoked' }),
    });
    const byQuery = await h.http().delete(`${PATH}?id=${b.body.token.id}`).set('Authorization', op.auth);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.token).toMatchObject({ id: b.body.token.id, status: 'revoked' });
    expect((await h.http().get(PATH).set('Authorization', bearer(b.body.bearerToken))).status).toBe(401);
    expect((await op.list()).body.tokens.map((t: { status: string }) => t.status)).toEqual([
      'revoked',
      'revoked',
    ]);
  });

  it('400 without an id, 404 for an unknown one', async () => {
    const op = await operator();
    expect((await op.remove({})).status).toBe(400);
    expect((await h.http().delete(PATH).set('Authorization', op.auth)).status).toBe(400);
    expect((await op.remove({ id: 'ntk_nope' })).status).toBe(404);
  });
});

describe('scoped callers cannot widen their reach', () => {
  it('a token scoped [api] may create [api] tokens, not unrestricted or other scopes, nor rotate wider ones', async () => {
    const op = await operator();
    const scoped = await op.create({ name: 'api-only', scopes: ['api'] });
    const wide = await op.create({ name: 'wide' });
    const as = bearer(scoped.body.bearerToken);
    const post = (body: object) => h.http().post(PATH).set('Authorization', as).send(body);

    expect((await post({ name: 'child', scopes: ['api'] })).status).toBe(201);
    const unrestricted = await post({ name: 'escalate' });
    expect(unrestricted.status).toBe(403);
    expect(unrestricted.body.code).toBe('PERMISSION_DENIED');
    expect((await post({ name: 'other', scopes: ['workflow'] })).status).toBe(403);

    const rotateWide = await h
      .http()
      .patch(PATH)
      .set('Authorization', as)
      .send({ id: wide.body.token.id, action: 'rotate' });
    expect(rotateWide.status).toBe(403);
    const widen = await h
      .http()
      .patch(PATH)
      .set('Authorization', as)
      .send({ id: scoped.body.token.id, scopes: [] });
    expect(widen.status).toBe(403);
    // Revoking is not an escalation.
    expect(
      (await h.http().delete(PATH).set('Authorization', as).send({ id: wide.body.token.id })).status,
    ).toBe(200);
  });
});

describe('scopes → routes', () => {
  it('a token reaches exactly the routes its scopes cover, and the 403 names the scope needed', async () => {
    const op = await operator();
    const make = async (scopes: string[]) =>
      bearer((await op.create({ name: `s-${scopes.join('-')}`, scopes })).body.bearerToken);
    const workflow = await make(['workflow']);
    const external = await make(['external_agent']);
    const api = await make(['api']);

    const agentsDenied = await h.http().get('/api/agents').set('Authorization', workflow);
    expect(agentsDenied.status).toBe(403);
    expect(agentsDenied.body.requiredScopes).toEqual(['external_agent', 'api']);
    expect(agentsDenied.body.error).toMatch(/needs one of the scopes "external_agent", "api"/);

    expect((await h.http().get('/api/agents').set('Authorization', external)).status).toBe(200);
    expect((await h.http().get('/api/agents').set('Authorization', api)).status).toBe(200);
    // /agent/me is outside /api: `api` does not reach it, `external_agent` does (404: no registration).
    const me = await h.http().get('/agent/me').set('Authorization', api);
    expect(me.status).toBe(403);
    expect(me.body.requiredScopes).toEqual(['external_agent']);
    expect((await h.http().get('/agent/me').set('Authorization', external)).status).toBe(404);
    // `external_agent` does not reach the token routes.
    expect((await h.http().get(PATH).set('Authorization', external)).status).toBe(403);
  });
});
