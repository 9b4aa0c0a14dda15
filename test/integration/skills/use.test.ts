import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadCatalog } from '../../../actors/skills/catalog-loader';
import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

const catalog = loadCatalog();
const example = (slug: string) => catalog.find((s) => s.slug === slug)!.example;

describe('skill store: using a capability', () => {
  let h: SkillsHarness;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url, service: 'orders', regions: [{ name: 'eu', latencyMs: 12 }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startSkillsHarness({ ALLOW_LOOPBACK_HTTP: 'true' });
  });
  afterAll(async () => {
    await h?.stop();
    server?.close();
  });

  it('runs the capability in the sandbox as a persisted SKILL_EXECUTION with logs', async () => {
    const t = await h.account();
    await h.install(t, { slug: 'csv-toolkit' });
    const { capability, params, output } = example('csv-toolkit');
    const res = await h.use(t, 'csv-toolkit', capability, params);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      result: output,
      execution_time_ms: expect.any(Number),
      execution: {
        id: expect.stringMatching(/^exe_/),
        type: 'SKILL_EXECUTION',
        status: 'COMPLETED',
        sourceType: 'skill',
        skillSlug: 'csv-toolkit',
        title: 'csv-toolkit.query',
        result: output,
        logs: expect.arrayContaining([
          expect.objectContaining({ message: 'Running csv-toolkit.query (version 1.2.0)' }),
        ]),
      },
    });
    expect(Number.isInteger(res.body.execution_time_ms)).toBe(true);
    const id = res.body.execution.id;
    const listed = await h.http().get('/api/executions').query({ skillSlug: 'csv-toolkit' }).set(bearer(t));
    expect(listed.body.executions.map((e: { id: string }) => e.id)).toContain(id);
    const one = await h.http().get(`/api/executions/${id}`).set(bearer(t));
    expect(one.body.execution).toMatchObject({ type: 'SKILL_EXECUTION', status: 'COMPLETED' });
    expect(one.body.logs.map((l: { message: string }) => l.message).join('\n')).toMatch(
      /csv-toolkit\.query completed in \d+ ms/,
    );
    const installed = await h.http().get('/api/skills/installed').set(bearer(t));
    expect(installed.body.installed_skills[0]).toMatchObject({ uses: 1, lastUsedAt: expect.any(String) });
  });

  it('checks in order, each with its own error, and refuses a revoked permission', async () => {
    const t = await h.account();
    const expectError = async (
      res: { status: number; body: Record<string, unknown> },
      status: number,
      code: string,
      reason?: string,
    ) => {
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(res.body.error).toEqual(expect.any(String));
      if (reason) expect(res.body.reason).toBe(reason);
    };
    await expectError(await h.use(t, 'no-such-skill', 'run'), 404, 'NOT_FOUND');
    await expectError(
      await h.use(t, 'memo-pad', 'recall', { topic: 'x' }),
      403,
      'PERMISSION_DENIED',
      'not_installed',
    );
    await h.install(t, { slug: 'memo-pad' });
    const missing = await h.use(t, 'memo-pad', 'recall', { topic: 'x' });
    await expectError(missing, 403, 'PERMISSION_DENIED', 'permission_not_approved');
    expect(missing.body.missingPermissions).toEqual(['mem']);
    await h
      .http()
      .patch('/api/skills/memo-pad/installation')
      .set(bearer(t))
      .send({ permissionsApproved: ['mem'] });
    expect((await h.use(t, 'memo-pad', 'recall', { topic: 'x' })).status).toBe(200);
    // Revoked: refused again.
    await h
      .http()
      .patch('/api/skills/memo-pad/installation')
      .set(bearer(t))
      .send({ permissionsApproved: [] });
    await expectError(
      await h.use(t, 'memo-pad', 'recall', { topic: 'x' }),
      403,
      'PERMISSION_DENIED',
      'permission_not_approved',
    );
    await h
      .http()
      .patch('/api/skills/memo-pad/installation')
      .set(bearer(t))
      .send({ permissionsApproved: ['mem'], status: 'disabled' });
    await expectError(
      await h.use(t, 'memo-pad', 'recall', { topic: 'x' }),
      403,
      'PERMISSION_DENIED',
      'not_active',
    );
    await h.http().patch('/api/skills/memo-pad/installation').set(bearer(t)).send({ status: 'active' });
    const unknown = await h.use(t, 'memo-pad', 'forget', {});
    await expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.capabilities).toEqual(['remember', 'recall', 'topics']);
    const invalid = await h.use(t, 'memo-pad', 'remember', { topic: 'bad topic!', extra: 1 });
    await expectError(invalid, 400, 'VALIDATION_ERROR');
    expect(invalid.body.error).toMatch(/Invalid params for memo-pad\.remember/);
    await expectError(
      await h.http().post('/api/skills/use').set(bearer(t)).send({}),
      400,
      'VALIDATION_ERROR',
    );
    // A required dependency removed: its dependents are refused.
    await h.install(t, { slug: 'report-builder' });
    await h
      .http()
      .patch('/api/skills/markdown-renderer/installation')
      .set(bearer(t))
      .send({ status: 'removed' });
    const dep = await h.use(t, 'report-builder', 'build', example('report-builder').params);
    await expectError(dep, 403, 'PERMISSION_DENIED', 'dependency_missing');
    expect(dep.body.missingSkills).toEqual(['markdown-renderer']);
    // Nothing above created an execution.
    const listed = await h.http().get('/api/executions').query({ type: 'SKILL_EXECUTION' }).set(bearer(t));
    expect(listed.body.executions).toHaveLength(1);
  });

  it('calls primitives through the agent tool path: its cache, the route records with invokedByType skill', async () => {
    const t = await h.account();
    await h.install(t, { slug: 'memo-pad', permissionsApproved: ['mem'] });
    const saved = await h.use(t, 'memo-pad', 'remember', {
      topic: 'ideas',
      note: 'ship the store',
      tags: ['todo'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({ topic: 'ideas', notes: 1 });
    const recalled = await h.use(t, 'memo-pad', 'recall', { topic: 'ideas', tag: 'todo' });
    expect(recalled.body.result.notes.map((n: { text: string }) => n.text)).toEqual(['ship the store']);
    // The same cache the agent reaches through /mcp.
    const mem = await h
      .http()
      .post('/mcp')
      .set(bearer(t))
      .send({ tool: 'mem_get', input: { key: 'memo:ideas' } });
    expect(mem.body.result.value.notes[0].text).toBe('ship the store');
    expect(saved.body.execution.logs.map((l: { message: string }) => l.message).join('\n')).toMatch(
      /2 platform calls: mem_get, mem_set/,
    );
    let routes: Array<{ tool: string; invokedByType: string; related: { skills: string[] } }> = [];
    for (let i = 0; i < 100 && routes.filter((r) => r.invokedByType === 'skill').length < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      routes = (await h.http().get('/api/ffp/routes').set(bearer(t))).body.routes;
    }
    const bySkill = routes.filter((r) => r.invokedByType === 'skill');
    expect(bySkill.map((r) => r.tool).sort()).toEqual([
      'platform.mem_get',
      'platform.mem_get',
      'platform.mem_set',
    ]);
    for (const r of bySkill) expect(r.related.skills).toEqual(['memo-pad']);
  });

  it("net calls follow the calling agent's egress rules", async () => {
    const t = await h.account();
    await h.install(t, { slug: 'http-json-fetch', permissionsApproved: ['net'] });
    const ok = await h.use(t, 'http-json-fetch', 'fetch_json', {
      url: `${base}/v1/status`,
      select: ['service', 'regions.0.latencyMs'],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({
      status: 200,
      ok: true,
      url: `${base}/v1/status`,
      fields: { service: 'orders', 'regions.0.latencyMs': 12 },
    });
    // A deployed agent that may only reach example.com: refused by net_http_get, the execution fails with its code.
    const agentKey = await h.agent(t, { allowedDomains: ['example.com'] });
    const refused = await h.use(agentKey, 'http-json-fetch', 'fetch_json', { url: `${base}/v1/status` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'PERMISSION_DENIED',
      execution: { type: 'SKILL_EXECUTION', status: 'FAILED', agentRef: expect.stringMatching(/^agref-/) },
    });
    // An agent without the tool in its allowedTools: refused by the router.
    const noNet = await h.agent(t, { allowedTools: ['mem_*'] });
    const noTool = await h.use(noNet, 'http-json-fetch', 'fetch_json', { url: `${base}/x` });
    expect(noTool.status).toBe(403);
    expect(noTool.body.error).toMatch(/allowedTools/);
  });

  it('a failing capability fails its execution: 502 SKILL_FAILED with success false', async () => {
    const t = await h.account();
    await h.install(t, { slug: 'csv-toolkit' });
    const res = await h.use(t, 'csv-toolkit', 'parse', { csv: 'a,b\n"unterminated,1' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      success: false,
      code: 'SKILL_FAILED',
      error: expect.stringContaining('Unterminated quoted field'),
      execution: { status: 'FAILED', failure: { code: 'SKILL_FAILED' } },
    });
    const recovery = await h.http().get('/api/recovery').set(bearer(t));
    expect(recovery.body.executions.map((e: { id: string }) => e.id)).toContain(res.body.execution.id);
  });

  it('panic lockdown refuses uses until lifted', async () => {
    const t = await h.account();
    await h.install(t, { slug: 'text-diff' });
    await h.http().post('/api/panic').set(bearer(t)).send({});
    const refused = await h.use(t, 'text-diff', 'diff', { a: 'x', b: 'y' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/panic lockdown/);
    await h.http().delete('/api/panic').set(bearer(t)).send({});
    expect((await h.use(t, 'text-diff', 'diff', { a: 'x', b: 'y' })).status).toBe(200);
  });

  it('takes a secret from a vault runtime grant consumed in the call; the value appears nowhere', async () => {
    const t = await h.account();
    const value = 'whsec_live_2f8c1d9e7b6a5f4e3d2c1b0a';
    await h.install(t, { slug: 'webhook-signer' });
    const params = { payload: { event: 'order.paid', id: 7 }, timestamp: 1767225600 };
    const secret = await h
      .http()
      .post('/api/vault')
      .set(bearer(t))
      .send({ name: 'WEBHOOK_SIGNING_SECRET', value });
    expect(secret.status).toBe(201);
    // Not assigned to the skill yet: the vault refuses, the use fails with its reason.
    const refused = await h.use(t, 'webhook-signer', 'sign', params);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'PERMISSION_DENIED',
      execution: { status: 'FAILED' },
    });
    await h
      .http()
      .post('/api/vault/assignments')
      .set(bearer(t))
      .send({ secretId: secret.body.secret.id, subjectType: 'skill', subjectId: 'webhook-signer' });
    const signed = await h.use(t, 'webhook-signer', 'sign', params);
    expect(signed.status).toBe(200);
    const message = `1767225600.${JSON.stringify(params.payload)}`;
    const expected = createHmac('sha256', value).update(message).digest('hex');
    expect(signed.body.result).toMatchObject({ signature: expected, header: `t=1767225600,v1=${expected}` });
    const verified = await h.use(t, 'webhook-signer', 'verify', {
      payload: params.payload,
      header: signed.body.result.header,
      now: 1767225660,
    });
    expect(verified.body.result).toEqual({ valid: true, timestamp: 1767225600, ageSeconds: 60 });
    const execution = await h.http().get(`/api/executions/${signed.body.execution.id}`).set(bearer(t));
    for (const text of [
      JSON.stringify(signed.body),
      JSON.stringify(execution.body),
      JSON.stringify(verified.body),
    ]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain('whsec_live');
    }
    expect(JSON.stringify(execution.body.logs)).toMatch(
      /Secret WEBHOOK_SIGNING_SECRET used through runtime grant vgr_/,
    );
    const audit = await h.http().get('/api/vault/audit').set(bearer(t));
    const events = audit.body.entries.map(
      (e: { event: string; subjectId?: string }) => `${e.event}:${e.subjectId ?? ''}`,
    );
    expect(events).toEqual(expect.arrayContaining(['granted:webhook-signer', 'consumed:webhook-signer']));
  });
});
