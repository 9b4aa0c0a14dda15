import { demoCounterKey } from '../../../actors/executions/demo-steps.runner';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import { bearer, sleep, startExecHarness, type ExecHarness } from './support/harness';

/**
 * Executions over RabbitMQ (the worker in the same process): every message, step report, event
 * broadcast and panic broadcast crosses the broker.
 */
describeWithService('amqp', 'executions over RabbitMQ', (amqpUrl) => {
  let h: ExecHarness;
  let token: string;
  const prefix = uniqueAmqpPrefix();

  beforeAll(async () => {
    h = await startExecHarness({ AMQP_URL: amqpUrl, AMQP_PREFIX: prefix });
    token = await h.account();
  });
  afterAll(async () => {
    const kinds = h?.runtime.system.status().kinds ?? [];
    const nodeId = h?.runtime.config.NODE_ID;
    await h?.stop();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
  });

  const incrs = (n: number) => Array.from({ length: n }, () => ({ op: 'incr', key: 'n' }));
  const counter = async (id: string) => Number((await h.runtime.cache.get(demoCounterKey(id, 'n'))) ?? 0);

  it('pauses, resumes, rolls back and streams its events', async () => {
    const steps = [...incrs(3), { op: 'mem_set', key: 'amqp/k', value: 1 }];
    const { id } = await h.create(token, { title: 'over amqp', input: { delayMs: 100, steps } });
    const doc = (await h.runtime.documents.repository(executionsCollection).findById(id))!;
    const events: ExecutionEvent[] = [];
    const ended = new Promise<void>((resolve, reject) =>
      h.runtime.system
        .stream<ExecutionEvent>(
          `execution:${id}`,
          'execution.watch',
          {},
          {
            auth: { subjectType: 'account', accountId: doc.accountId, via: 'bearer' },
          },
        )
        .subscribe({ next: (e) => events.push(e), complete: resolve, error: reject }),
    );
    await h.waitFor(token, id, (e) => e.progress.completedSteps >= 1);
    expect((await h.act(token, id, 'pause')).body.execution.status).toBe('PAUSED');
    const stopped = await h.waitFor(token, id, (e) => e.stepInFlight === null);
    await sleep(300);
    expect(await counter(id)).toBe(stopped.progress.completedSteps);
    expect((await h.act(token, id, 'resume')).body.execution.status).toBe('RUNNING');
    await h.waitFor(token, id, (e) => e.status === 'COMPLETED');
    await ended;
    expect(events.at(-1)).toEqual({ type: 'done', executionId: id, status: 'COMPLETED' });
    expect(await counter(id)).toBe(3);

    const rollback = await h.act(token, id, 'rollback');
    expect(rollback.body.rollback).toEqual({
      undone: [{ step: 3, kind: 'mem_set', target: 'amqp/k' }],
      notUndone: [],
    });
  });

  it('panics: the steps stop on the worker and the lockdown holds until lifted', async () => {
    const { id } = await h.create(token, { title: 'stop me', input: { delayMs: 50, steps: incrs(100) } });
    await h.waitFor(token, id, (e) => e.progress.completedSteps >= 2);
    const res = await h.http().post('/api/panic').set(bearer(token)).send({});
    expect(res.body).toMatchObject({ stopped: 1, executions: [{ id, status: 'CANCELLED' }], lockdown: true });
    const count = await counter(id);
    await sleep(400);
    expect(await counter(id)).toBe(count);
    const mcp = await h
      .http()
      .post('/mcp')
      .set(bearer(token))
      .send({ tool: 'mem_get', input: { key: 'k' } });
    expect(mcp.status).toBe(403);
    await h.http().delete('/api/panic').set(bearer(token)).send({});
    const again = await h
      .http()
      .post('/mcp')
      .set(bearer(token))
      .send({ tool: 'mem_get', input: { key: 'k' } });
    expect(again.status).toBe(200);
  });
});
