import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import { bearer, startIdentityHarness, type IdentityHarness } from './support/identity-harness';

/**
 * Agents and named tokens with every message through RabbitMQ (one process, AMQP transport): the
 * replies, principals and timestamps survive the wire, and `agent.recordCall` flushes through a
 * message to self.
 */
describeWithService('amqp', 'agents and named tokens over RabbitMQ', (amqpUrl) => {
  let h: IdentityHarness;
  const prefix = uniqueAmqpPrefix();

  beforeAll(async () => {
    h = await startIdentityHarness({ AMQP_URL: amqpUrl, AMQP_PREFIX: prefix });
  });
  afterAll(async () => {
    const kinds = h?.runtime.system.status().kinds ?? [];
    const nodeId = h?.runtime.config.NODE_ID;
    await h?.stop();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
  });

  it('registers, counts calls, deploys a subagent, and manages a named token', async () => {
    const reg = await h.http().post('/register').send({ name: 'Wire bot' });
    expect(reg.status).toBe(201);
    const internalId = (await h.runtime.documents.db.collection('agents').findOne({ name: 'Wire bot' }))!._id;
    await h.runtime.system.tell(`agent:${String(internalId)}`, 'agent.recordCall', { calls: 3 });
    const me = await h.http().get('/agent/me').set('Authorization', bearer(reg.body.token));
    expect(me.body).toMatchObject({ name: 'Wire bot', totalCalls: 3, lastActiveAt: expect.any(String) });

    const { token } = await h.account();
    const auth = bearer(token);
    const parent = await h.http().post('/api/agents').set('Authorization', auth).send({ name: 'Lead' });
    const sub = await h
      .http()
      .post('/api/agents')
      .set('Authorization', auth)
      .send({ name: 'Aide', parentAgentRef: parent.body.agent.agentRef });
    expect(sub.status).toBe(201);
    expect((await h.http().get('/api/agents').set('Authorization', auth)).body.agents).toHaveLength(2);

    const created = await h
      .http()
      .post('/api/bearer-tokens')
      .set('Authorization', auth)
      .send({ name: 'w', scopes: ['workflow'] });
    const id = created.body.token.id as string;
    expect(
      (await h.http().get('/api/agents').set('Authorization', bearer(created.body.bearerToken))).status,
    ).toBe(403);
    await h
      .http()
      .patch('/api/bearer-tokens')
      .set('Authorization', auth)
      .send({ id, scopes: ['external_agent'] });
    expect(
      (await h.http().get('/api/agents').set('Authorization', bearer(created.body.bearerToken))).status,
    ).toBe(200);
    const rotated = await h
      .http()
      .patch('/api/bearer-tokens')
      .set('Authorization', auth)
      .send({ id, action: 'rotate' });
    expect(
      (await h.http().get('/api/agents').set('Authorization', bearer(created.body.bearerToken))).status,
    ).toBe(401);
    await h.http().delete('/api/bearer-tokens').set('Authorization', auth).send({ id });
    expect(
      (await h.http().get('/api/agents').set('Authorization', bearer(rotated.body.bearerToken))).status,
    ).toBe(401);
  });
});
