import { secretValue, useVaultHarness, type Account } from './support/vault-harness';

/**
 * Secrets and assignments through the HTTP API of a runtime from `startRuntime`: creation,
 * masking, validation, duplicates, rotation, disable/enable, deletion, who may manage, tenant
 * isolation, the management events of the audit log, and that no value ever leaves.
 */

let a: Account;
let b: Account;
/** Every value given to the vault in this file: none may appear anywhere but a consume. */
const values: string[] = [];
const s = useVaultHarness(values);

const value = (label: string) => {
  const v = secretValue(label);
  values.push(v);
  return v;
};

const create = (owner: Account, body: Record<string, unknown>) =>
  s.h.api.post('/api/vault', owner.auth, body);

beforeAll(async () => {
  [a, b] = [await s.h.account(), await s.h.account()];
}, 60_000);

describe('secrets', () => {
  it('creates a secret (201): masked, value version 1, in the default workspace; the value is stored sealed', async () => {
    const v = value('OPENAI');
    const res = await create(a, { name: 'OPENAI_API_KEY', value: v });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      secret: {
        id: expect.stringMatching(/^vsec_[0-9a-f]{24}$/),
        name: 'OPENAI_API_KEY',
        status: 'active',
        workspaceId: a.workspaceId,
        maskedValue: `••••${v.slice(-2)}`,
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const doc = await s.h.runtime.documents.db
      .collection('vault_secrets')
      .findOne({ _id: res.body.secret.id });
    expect(doc).toMatchObject({
      accountId: a.accountId,
      valueVersion: 1,
      sealedValue: expect.stringMatching(/^v2\.[0-9a-f]{12}\./),
    });
    expect(JSON.stringify(doc)).not.toContain(v);
  });

  it('masks short values completely', async () => {
    const res = await create(a, { name: 'SHORT_ONE', value: value('x').slice(0, 10) });
    expect(res.status).toBe(201);
    expect(res.body.secret.maskedValue).toBe('••••');
  });

  it('lists the account’s secrets, by workspace and by a part of the name (case-insensitive)', async () => {
    await create(a, { name: 'GITHUB_TOKEN', value: value('GH') });
    const all = await s.h.api.get('/api/vault', a.auth);
    expect(all.status).toBe(200);
    expect(all.body.secrets.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'SHORT_ONE']),
    );
    const found = await s.h.api.get('/api/vault?search=github', a.auth);
    expect(found.body.secrets.map((s: { name: string }) => s.name)).toEqual(['GITHUB_TOKEN']);
    const inWs = await s.h.api.get(`/api/vault?workspaceId=${a.workspaceId}&search=_`, a.auth);
    expect(inWs.body.secrets.length).toBeGreaterThanOrEqual(3);
    const otherWs = await s.h.api.get('/api/vault?workspaceId=ws_other', a.auth);
    expect(otherWs.body).toEqual({ secrets: [] });
    // Regex characters in `search` are literal.
    expect((await s.h.api.get('/api/vault?search=.*', a.auth)).body).toEqual({ secrets: [] });
  });

  it.each([
    ['lower case', { name: 'openai_key' }],
    ['one character', { name: 'A' }],
    ['121 characters', { name: 'A'.repeat(121) }],
    ['a dash', { name: 'MY-KEY' }],
    ['no name', {}],
  ])('refuses a name with %s (400, named field)', async (_label, fields) => {
    const v = value('BAD');
    const res = await create(a, { value: v, ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: 'name' })],
    });
    expect(res.text).not.toContain(v);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['a number', 12345],
    ['an object', { nested: 'x' }],
  ])('refuses a value that is %s (400)', async (_label, v) => {
    const res = await create(a, { name: 'VALUE_CHECK', value: v });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'value' })]);
  });

  it('takes a value of exactly 64 KiB and refuses one byte more (413), without echoing it', async () => {
    const big = value('BIG') + 'x'.repeat(64 * 1024);
    const exact = big.slice(0, 64 * 1024);
    values.push(exact);
    const ok = await create(a, { name: 'EXACTLY_64K', value: exact });
    expect(ok.status).toBe(201);
    const tooBig = await create(a, { name: 'TOO_BIG', value: big.slice(0, 64 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'value', limitBytes: 65536 });
    // Multi-byte characters count in bytes.
    const wide = await create(a, { name: 'TOO_WIDE', value: 'é'.repeat(32 * 1024 + 1) });
    expect(wide.status).toBe(413);
    const rotate = await s.h.api.patch('/api/vault', a.auth, {
      secretId: ok.body.secret.id,
      action: 'rotate',
      value: big.slice(0, 64 * 1024 + 1),
    });
    expect(rotate.status).toBe(413);
  });

  it('a duplicate name in the same account and workspace is 409; another account may use it', async () => {
    const res = await create(a, { name: 'OPENAI_API_KEY', value: value('DUP') });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', field: 'name' });
    expect((await create(b, { name: 'OPENAI_API_KEY', value: value('B') })).status).toBe(201);
  });

  it('two racing creations of one name: one 201, one 409', async () => {
    const [one, two] = await Promise.all([
      create(a, { name: 'RACED_NAME', value: value('R1') }),
      create(a, { name: 'RACED_NAME', value: value('R2') }),
    ]);
    expect([one.status, two.status].sort()).toEqual([201, 409]);
  });

  it('rotates: value version 2, a new mask; rotate needs a value, other actions refuse one (400)', async () => {
    const created = await create(a, { name: 'ROTATE_ME', value: value('OLD') });
    const id = created.body.secret.id as string;
    const v2 = value('NEW');
    const res = await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'rotate', value: v2 });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatchObject({
      id,
      version: 2,
      maskedValue: `••••${v2.slice(-2)}`,
      status: 'active',
    });
    const noValue = await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'rotate' });
    expect(noValue.status).toBe(400);
    expect(noValue.body.details).toEqual([expect.objectContaining({ path: 'value' })]);
    const extra = await s.h.api.patch('/api/vault', a.auth, {
      secretId: id,
      action: 'disable',
      value: value('X'),
    });
    expect(extra.status).toBe(400);
    const badAction = await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'reveal' });
    expect(badAction.status).toBe(400);
  });

  it('disables and enables (idempotent)', async () => {
    const id = (await create(a, { name: 'TOGGLE', value: value('T') })).body.secret.id as string;
    for (const [action, status] of [
      ['disable', 'disabled'],
      ['disable', 'disabled'],
      ['enable', 'active'],
      ['enable', 'active'],
    ]) {
      const res = await s.h.api.patch('/api/vault', a.auth, { secretId: id, action });
      expect(res.status).toBe(200);
      expect(res.body.secret.status).toBe(status);
    }
  });

  it('deletes with ?secretId= (or a JSON body): {deleted, secret}; then 404 everywhere', async () => {
    const id = (await create(a, { name: 'DELETE_ME', value: value('D') })).body.secret.id as string;
    await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId: id,
      subjectType: 'skill',
      subjectId: 'web-search',
    });
    const res = await s.h.api.del(`/api/vault?secretId=${id}`, a.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, secret: expect.objectContaining({ id, name: 'DELETE_ME' }) });
    expect((await s.h.api.del(`/api/vault?secretId=${id}`, a.auth)).status).toBe(404);
    expect((await s.h.api.patch('/api/vault', a.auth, { secretId: id, action: 'enable' })).status).toBe(404);
    expect((await s.h.api.get(`/api/vault/assignments?secretId=${id}`, a.auth)).body).toEqual({
      assignments: [],
    });
    const viaBody = (await create(a, { name: 'DELETE_ME_TOO', value: value('D2') })).body.secret.id as string;
    expect((await s.h.api.del('/api/vault', a.auth, { secretId: viaBody })).body.deleted).toBe(true);
    expect((await s.h.api.del('/api/vault', a.auth)).status).toBe(400);
  });

  it('creates in a workspace the account owns; another account’s workspace is 404', async () => {
    const own = await create(a, { workspaceId: a.workspaceId, name: 'IN_WS', value: value('W') });
    expect(own.status).toBe(201);
    const foreign = await create(a, { workspaceId: b.workspaceId, name: 'IN_WS', value: value('W2') });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', field: 'workspaceId' });
  });

  it('a shared workspace: members are refused, admins need manage_org_vault', async () => {
    const workspaces = s.h.runtime.documents.db.collection<{ _id: string }>('workspaces');
    const retail = await s.h.account('retail_pro');
    await workspaces.updateOne({ _id: a.workspaceId }, {
      $push: {
        members: {
          $each: [
            { accountId: b.accountId, role: 'member' },
            { accountId: retail.accountId, role: 'admin' },
          ],
        },
      },
    } as never);
    const member = await create(b, { workspaceId: a.workspaceId, name: 'SHARED', value: value('S') });
    expect(member.status).toBe(403);
    const admin = await create(retail, { workspaceId: a.workspaceId, name: 'SHARED', value: value('S2') });
    expect(admin.status).toBe(403);
    expect(admin.body.error).toBe('Plan capability required: manage_org_vault');
    await workspaces.updateOne(
      { _id: a.workspaceId, 'members.accountId': b.accountId } as never,
      {
        $set: { 'members.$.role': 'admin' },
      } as never,
    );
    const enterpriseAdmin = await create(b, {
      workspaceId: a.workspaceId,
      name: 'SHARED',
      value: value('S3'),
    });
    expect(enterpriseAdmin.status).toBe(201);
    await workspaces.updateOne({ _id: a.workspaceId }, { $pull: { members: { role: 'admin' } } } as never);
  });

  it('tenant isolation: another account can neither see nor change a secret (404)', async () => {
    const id = (await create(a, { name: 'PRIVATE_TO_A', value: value('P') })).body.secret.id as string;
    const list = await s.h.api.get('/api/vault', b.auth);
    expect(list.body.secrets.map((s: { id: string }) => s.id)).not.toContain(id);
    expect((await s.h.api.patch('/api/vault', b.auth, { secretId: id, action: 'disable' })).status).toBe(404);
    expect((await s.h.api.del(`/api/vault?secretId=${id}`, b.auth)).status).toBe(404);
    const assign = await s.h.api.post('/api/vault/assignments', b.auth, {
      secretId: id,
      subjectType: 'app',
      subjectId: 'x',
    });
    expect(assign.status).toBe(404);
    expect((await s.h.api.get('/api/vault', a.auth)).body.secrets.map((s: { id: string }) => s.id)).toContain(
      id,
    );
  });

  it('who may manage: any plan’s account; not agent keys, not tokens scoped elsewhere, not anonymous', async () => {
    const retail = await s.h.account('retail_pro');
    expect((await create(retail, { name: 'RETAIL_KEY', value: value('RT') })).status).toBe(201);
    const agent = await s.h.api.post('/api/agents', a.auth, { name: 'Vault bot' });
    const agentAuth = `Bearer ${agent.body.apiKey as string}`;
    expect(
      (await s.h.api.post('/api/vault', agentAuth, { name: 'BY_AGENT', value: value('AG') })).status,
    ).toBe(403);
    expect((await s.h.api.get('/api/vault', agentAuth)).status).toBe(403);
    const scoped = await s.h.api.post('/api/bearer-tokens', a.auth, { name: 'apps only', scopes: ['app'] });
    const scopedAuth = `Bearer ${scoped.body.bearerToken as string}`;
    expect((await s.h.api.get('/api/vault', scopedAuth)).status).toBe(403);
    const apiScoped = await s.h.api.post('/api/bearer-tokens', a.auth, { name: 'api', scopes: ['api'] });
    expect((await s.h.api.get('/api/vault', `Bearer ${apiScoped.body.bearerToken as string}`)).status).toBe(
      200,
    );
    expect((await s.h.api.get('/api/vault', undefined)).status).toBe(401);
    expect((await s.h.api.post('/api/vault', undefined, { name: 'ANON', value: value('AN') })).status).toBe(
      401,
    );
  });
});

describe('assignments', () => {
  let secretId: string;

  beforeAll(async () => {
    secretId = (await create(a, { name: 'ASSIGNED_KEY', value: value('AS') })).body.secret.id as string;
  });

  it('assigns to skills, apps, agents and workflows (201), lists, and refuses duplicates (409)', async () => {
    for (const [subjectType, subjectId] of [
      ['skill', 'web-search'],
      ['app', 'crm-sync'],
      ['agent', 'agref-abc'],
      ['workflow', 'wf_nightly'],
    ]) {
      const res = await s.h.api.post('/api/vault/assignments', a.auth, { secretId, subjectType, subjectId });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        assignment: {
          id: expect.stringMatching(/^vasg_/),
          secretId,
          secretName: 'ASSIGNED_KEY',
          workspaceId: a.workspaceId,
          subjectType,
          subjectId,
          createdAt: expect.any(String),
        },
      });
    }
    const dup = await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId,
      subjectType: 'skill',
      subjectId: 'web-search',
    });
    expect(dup.status).toBe(409);
    const list = await s.h.api.get(`/api/vault/assignments?secretId=${secretId}`, a.auth);
    expect(list.body.assignments).toHaveLength(4);
    const skills = await s.h.api.get(`/api/vault/assignments?secretId=${secretId}&subjectType=skill`, a.auth);
    expect(skills.body.assignments).toHaveLength(1);
    expect((await s.h.api.get('/api/vault/assignments', b.auth)).body.assignments).toEqual([]);
  });

  it('unassigns with the query (or a body); unknown is 404; bad input 400', async () => {
    const q = `secretId=${secretId}&subjectType=workflow&subjectId=wf_nightly`;
    const res = await s.h.api.del(`/api/vault/assignments?${q}`, a.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted: true,
      assignment: expect.objectContaining({ subjectId: 'wf_nightly' }),
    });
    expect((await s.h.api.del(`/api/vault/assignments?${q}`, a.auth)).status).toBe(404);
    const viaBody = await s.h.api.del('/api/vault/assignments', a.auth, {
      secretId,
      subjectType: 'agent',
      subjectId: 'agref-abc',
    });
    expect(viaBody.status).toBe(200);
    expect((await s.h.api.del(`/api/vault/assignments?secretId=${secretId}`, a.auth)).status).toBe(400);
    const bad = await s.h.api.post('/api/vault/assignments', a.auth, {
      secretId,
      subjectType: 'robot',
      subjectId: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'subjectType' })]);
  });
});

describe('audit of management', () => {
  it('records created, rotated, disabled, enabled, assigned, unassigned, deleted; pages with a cursor', async () => {
    const c = await s.h.account();
    const id = (await create(c, { name: 'AUDITED', value: value('AU') })).body.secret.id as string;
    await s.h.api.patch('/api/vault', c.auth, { secretId: id, action: 'rotate', value: value('AU2') });
    await s.h.api.patch('/api/vault', c.auth, { secretId: id, action: 'disable' });
    await s.h.api.patch('/api/vault', c.auth, { secretId: id, action: 'enable' });
    await s.h.api.post('/api/vault/assignments', c.auth, {
      secretId: id,
      subjectType: 'skill',
      subjectId: 's1',
    });
    await s.h.api.del(`/api/vault/assignments?secretId=${id}&subjectType=skill&subjectId=s1`, c.auth);
    await s.h.api.del(`/api/vault?secretId=${id}`, c.auth);

    const all = await s.h.api.get('/api/vault/audit', c.auth);
    expect(all.status).toBe(200);
    expect(all.body.entries.map((e: { event: string }) => e.event)).toEqual([
      'deleted',
      'unassigned',
      'assigned',
      'enabled',
      'disabled',
      'rotated',
      'created',
    ]);
    expect(all.body.entries[0]).toEqual({
      id: expect.stringMatching(/^vau_/),
      event: 'deleted',
      workspaceId: c.workspaceId,
      secretName: 'AUDITED',
      secretId: id,
      actor: { kind: 'account', via: 'bearer' },
      at: expect.any(String),
    });
    expect(all.body.nextCursor).toBeNull();

    const first = await s.h.api.get('/api/vault/audit?limit=3', c.auth);
    expect(first.body.entries).toHaveLength(3);
    const second = await s.h.api.get(
      `/api/vault/audit?limit=3&cursor=${first.body.nextCursor as string}`,
      c.auth,
    );
    const third = await s.h.api.get(
      `/api/vault/audit?limit=3&cursor=${second.body.nextCursor as string}`,
      c.auth,
    );
    expect([...first.body.entries, ...second.body.entries, ...third.body.entries]).toEqual(all.body.entries);
    expect(third.body.nextCursor).toBeNull();

    const rotations = await s.h.api.get('/api/vault/audit?event=rotated', c.auth);
    expect(rotations.body.entries).toHaveLength(1);
    expect((await s.h.api.get('/api/vault/audit?cursor=nope', c.auth)).status).toBe(400);
    expect((await s.h.api.get('/api/vault/audit?limit=500', c.auth)).status).toBe(400);
    expect(
      (await s.h.api.get('/api/vault/audit', b.auth)).body.entries.every(
        (e: { secretName: string }) => e.secretName !== 'AUDITED',
      ),
    ).toBe(true);
  });
});
