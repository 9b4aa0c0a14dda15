import { createHmac } from 'node:crypto';
import { loadCatalog } from '../../../actors/skills/catalog-loader';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';
import { SLOW_SKILL } from './support/test-skills';

/**
 * The skill store over RabbitMQ (the worker in the same process): installs through the `skills`
 * actor, the SKILL_EXECUTION, the platform calls to the agent, the vault grant and the panic
 * broadcast all cross the broker.
 */
describeWithService('amqp', 'skill store over RabbitMQ', (amqpUrl) => {
  let h: SkillsHarness;
  let token: string;
  const prefix = uniqueAmqpPrefix();
  const catalog = loadCatalog();

  beforeAll(async () => {
    h = await startSkillsHarness(
      { AMQP_URL: amqpUrl, AMQP_PREFIX: prefix },
      { skills: { catalog: [...catalog, SLOW_SKILL] } },
    );
    token = await h.account();
  });
  afterAll(async () => {
    const kinds = h?.runtime.system.status().kinds ?? [];
    const nodeId = h?.runtime.config.NODE_ID;
    await h?.stop();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
  });

  it('installs with a dependency and uses a capability that needs it', async () => {
    const install = await h.install(token, { slug: 'report-builder', optionalDependencies: ['text-stats'] });
    expect(install.status).toBe(201);
    expect(install.body.dependenciesInstalled.map((d: { slug: string }) => d.slug)).toEqual([
      'markdown-renderer',
      'text-stats',
    ]);
    const { params, output } = catalog.find((s) => s.slug === 'report-builder')!.example;
    const use = await h.use(token, 'report-builder', 'build', params);
    expect(use.status).toBe(200);
    expect(use.body).toMatchObject({
      success: true,
      result: output,
      execution: { type: 'SKILL_EXECUTION', status: 'COMPLETED' },
    });
  });

  it("calls the agent's cache and takes a vault secret, over the broker", async () => {
    await h.install(token, { slug: 'memo-pad', permissionsApproved: ['mem'] });
    expect((await h.use(token, 'memo-pad', 'remember', { topic: 'amqp', note: 'hello' })).status).toBe(200);
    const recall = await h.use(token, 'memo-pad', 'recall', { topic: 'amqp' });
    expect(recall.body.result.notes.map((n: { text: string }) => n.text)).toEqual(['hello']);

    const value = 'whsec_amqp_9a8b7c6d5e4f3a2b1c0d';
    const secret = await h
      .http()
      .post('/api/vault')
      .set(bearer(token))
      .send({ name: 'WEBHOOK_SIGNING_SECRET', value });
    await h
      .http()
      .post('/api/vault/assignments')
      .set(bearer(token))
      .send({ secretId: secret.body.secret.id, subjectType: 'skill', subjectId: 'webhook-signer' });
    await h.install(token, { slug: 'webhook-signer' });
    const signed = await h.use(token, 'webhook-signer', 'sign', { payload: 'x', timestamp: 1 });
    expect(signed.body.result.signature).toBe(createHmac('sha256', value).update('1.x').digest('hex'));
    expect(JSON.stringify(signed.body)).not.toContain(value);
  });

  it('refuses a revoked permission, and panic stops a running use', async () => {
    await h
      .http()
      .patch('/api/skills/memo-pad/installation')
      .set(bearer(token))
      .send({ permissionsApproved: [] });
    const refused = await h.use(token, 'memo-pad', 'recall', { topic: 'amqp' });
    expect(refused.status).toBe(403);
    expect(refused.body.missingPermissions).toEqual(['mem']);

    await h.install(token, { slug: 'slow-loop' });
    const started = Date.now();
    // A supertest request starts when it is awaited: `then` sends it now.
    const running = h.use(token, 'slow-loop', 'spin', { ms: 8000 }).then((r) => r);
    let id: string | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const list = await h
        .http()
        .get('/api/executions')
        .query({ skillSlug: 'slow-loop', status: 'RUNNING' })
        .set(bearer(token));
      id = list.body.executions[0]?.id;
    }
    expect(id).toBeDefined();
    const panic = await h.http().post('/api/panic').set(bearer(token)).send({});
    expect(panic.body.executions).toEqual([{ id, status: 'CANCELLED' }]);
    const res = await running;
    expect(Date.now() - started).toBeLessThan(6000);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, execution: { id, status: 'CANCELLED' } });
    await h.http().delete('/api/panic').set(bearer(token)).send({});
  });
});
