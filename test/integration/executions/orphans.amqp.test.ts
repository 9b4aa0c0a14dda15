import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { waitFor as waitForCondition } from '../../support/async';
import { killAllChildren, startChild } from '../../support/child-process';
import { describeWithService } from '../../support/services';
import { bearer, sleep } from './support/harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, checked by the assertions
type Loose = Record<string, any>;

const WORKER = path.join(__dirname, 'support/runtime-worker.child.ts');

/**
 * Orphaned steps over RabbitMQ: the only worker, a child process, runs a step that hangs and is
 * killed with SIGKILL. A worker started afterwards sweeps: the execution FAILS at that step ("the
 * node running it stopped"), and a retry runs it again on the new worker and completes.
 */
describeWithService('amqp', 'orphaned steps over RabbitMQ', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const suffix = randomBytes(4).toString('hex');
  const dirs: string[] = [];
  const runtimes: Runtime[] = [];
  let mongo: EmbeddedMongo;
  let shared: Record<string, string>;

  const tmp = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-orphans-${name}-`));
    dirs.push(dir);
    return dir;
  };
  const boot = async (role: 'api' | 'worker', nodeId: string, env: Record<string, string> = {}) => {
    const runtime = await startRuntime(
      loadConfig({ ...shared, ...env, ROLE: role, NODE_ID: nodeId, DATA_DIR: tmp(role), PORT: '0' }),
      silentLogger,
      { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
    );
    runtimes.push(runtime);
    return runtime;
  };

  beforeAll(async () => {
    mongo = await startEmbeddedMongo({ dir: tmp('mongo') });
    shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}orphans_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      EXECUTION_LEASE_MS: '800',
    };
  });
  afterAll(async () => {
    await killAllChildren();
    const kinds = runtimes.find((r) => r.config.ROLE === 'worker')?.system.status().kinds ?? [];
    const nodeIds = [...runtimes.map((r) => r.config.NODE_ID), `orphans-doomed-${suffix}`];
    for (const r of runtimes) await r.stop().catch(() => undefined);
    await mongo?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds });
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a worker killed with -9 mid-step: another sweeps it to FAILED and a retry completes it', async () => {
    const child = startChild(WORKER, {
      ...shared,
      ROLE: 'worker',
      NODE_ID: `orphans-doomed-${suffix}`,
      DATA_DIR: tmp('doomed'),
      EXECUTION_SWEEP_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
    });
    await child.waitForMessage<{ event: string }>(
      (m) => m.event === 'ready',
      'the worker child ready',
      30_000,
    );
    const front = await boot('api', `orphans-api-${suffix}`);
    const http = () => request(front.http!.url);
    const signup = await http()
      .post('/api/signup')
      .send({
        email: `orphan-${suffix}@example.com`,
        password: 'correct horse battery',
        accountType: 'retail',
        selectedPlan: 'retail_pro',
      });
    expect(signup.status).toBe(201);
    const auth = bearer(signup.body.credentials.bearerToken as string);
    const get = async (id: string) => (await http().get(`/api/executions/${id}`).set(auth)).body.execution;
    const waitFor = async (id: string, check: (e: Loose) => boolean, ms = 15_000) => {
      const until = Date.now() + ms;
      for (;;) {
        const e = await get(id);
        if (e && check(e)) return e;
        if (Date.now() > until) throw new Error(`not as expected in time: ${JSON.stringify(e)}`);
        await sleep(50);
      }
    };

    const created = await http()
      .post('/api/executions')
      .set(auth)
      .send({
        title: 'killed mid-step',
        input: {
          steps: [
            { op: 'sleep', ms: 1 },
            { op: 'hang', name: 'stuck' },
            { op: 'sleep', ms: 1 },
          ],
        },
      });
    expect(created.status).toBe(201);
    const id = created.body.execution.id as string;
    await waitFor(id, (e) => e.stepInFlight === 1);
    // The step runs on the child once it holds the lease (before that, its message may still be
    // queued: a new worker would then run it itself, which is not the case under test).
    const repo = front.documents.repository(executionsCollection);
    await waitForCondition(
      async () => (await repo.findById(id))?.current?.leaseNode === `orphans-doomed-${suffix}`,
      'the child holding the lease of step 2',
      15_000,
    );
    await child.kill('SIGKILL');

    // The survivor: a new worker whose sweeper finds the lapsed lease.
    await boot('worker', `orphans-w2-${suffix}`, { EXECUTION_SWEEP_INTERVAL_MS: '100' });
    const failed = await waitFor(id, (e) => e.status === 'FAILED');
    expect(failed.failure).toMatchObject({
      whatFailed: 'Step 2 "stuck": the node running it stopped',
      code: 'UNAVAILABLE',
    });
    expect(failed.progress.completedSteps).toBe(1);

    const retried = await http().post(`/api/executions/${id}/actions`).set(auth).send({ action: 'retry' });
    expect(retried.status).toBe(200);
    const done = await waitFor(id, (e) => e.status === 'COMPLETED');
    expect(done.steps.map((s: { attempts: number }) => s.attempts)).toEqual([1, 2, 1]);
  }, 90_000);
});
