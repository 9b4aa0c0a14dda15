import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { ExecutionSweeper } from '../../../actors/executions/execution-leases';
import { createExecutionsService } from '../../../actors/executions/executions';
import { executionsCollection } from '../../../actors/executions/executions.collection';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { waitFor as waitForCondition } from '../../support/async';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { bearer, executionServicesOf, sleep } from './support/harness';

/**
 * Orphaned steps: two nodes (in-process transports) sharing one document store. Node A runs a step
 * that hangs and then stops; node B's sweeper finds the step's lease lapsed and fails the execution
 * ("the node running it stopped"), and a retry on B runs the step again and completes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, checked by the assertions
type Loose = Record<string, any>;

let mongo: EmbeddedMongo;
const dirs: string[] = [];
const runtimes: Runtime[] = [];

async function boot(shared: Record<string, string>, env: Record<string, string>): Promise<Runtime> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-orphans-'));
  dirs.push(dir);
  const runtime = await startRuntime(
    loadConfig({ ...shared, ...env, DATA_DIR: dir, PORT: '0' }),
    silentLogger,
    { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
  );
  runtimes.push(runtime);
  return runtime;
}

let a: Runtime;
let b: Runtime;
let token: string;

beforeAll(async () => {
  const mongoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-orphans-mongo-'));
  dirs.push(mongoDir);
  mongo = await startEmbeddedMongo({ dir: mongoDir });
  const shared = {
    MONGODB_URL: `${mongo.url}orphans_${randomBytes(4).toString('hex')}`,
    JWT_SECRET: randomBytes(24).toString('hex'),
    EXECUTION_LEASE_MS: '600',
  };
  a = await boot(shared, { EXECUTION_SWEEP_INTERVAL_MS: '0' });
  b = await boot(shared, { EXECUTION_SWEEP_INTERVAL_MS: '100' });
  const res = await request(a.http!.url)
    .post('/api/signup')
    .send({
      email: `orphan-${randomBytes(6).toString('hex')}@example.com`,
      password: 'correct horse battery',
      accountType: 'retail',
      selectedPlan: 'retail_pro',
    });
  expect(res.status).toBe(201);
  token = res.body.credentials.bearerToken as string;
});

afterAll(async () => {
  for (const r of runtimes) await r.stop(200).catch(() => undefined);
  await mongo?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const get = async (r: Runtime, id: string) => {
  const res = await request(r.http!.url).get(`/api/executions/${id}`).set(bearer(token));
  expect(res.status).toBe(200);
  return res.body as { execution: Loose; logs: Array<{ message: string }> };
};
const waitFor = async (r: Runtime, id: string, check: (e: Loose) => boolean, ms = 8000) => {
  const until = Date.now() + ms;
  for (;;) {
    const { execution } = await get(r, id);
    if (check(execution)) return execution;
    if (Date.now() > until) throw new Error(`not as expected in time: ${JSON.stringify(execution)}`);
    await sleep(30);
  }
};

it('fails a step whose node stopped, notifies, and a retry resumes from the last good step', async () => {
  const created = await request(a.http!.url)
    .post('/api/executions')
    .set(bearer(token))
    .send({
      title: 'orphan',
      input: {
        steps: [
          { op: 'incr', key: 'n' },
          { op: 'hang', name: 'stuck' },
          { op: 'incr', key: 'n' },
        ],
      },
    });
  expect(created.status).toBe(201);
  const id = created.body.execution.id as string;
  await waitFor(a, id, (e) => e.stepInFlight === 1);
  const repo = a.documents.repository(executionsCollection);
  // A renews the lease while the step runs (first after a third of it), naming itself.
  await waitForCondition(
    async () => (await repo.findById(id))?.current?.leaseNode === a.config.NODE_ID,
    'node A renewing the lease',
  );

  // While A renews its lease, B's sweeper leaves the step alone (several lease lengths).
  await sleep(1500);
  expect((await get(b, id)).execution).toMatchObject({ status: 'RUNNING', stepInFlight: 1 });

  await a.stop(100); // the node dies with its step in flight: nobody renews the lease
  const failed = await waitFor(b, id, (e) => e.status === 'FAILED');
  expect(failed.failure).toMatchObject({
    whatFailed: 'Step 2 "stuck": the node running it stopped',
    code: 'UNAVAILABLE',
  });
  expect(failed.stepInFlight).toBeNull();
  expect(failed.progress.completedSteps).toBe(1);
  expect(failed.steps[1]).toMatchObject({ status: 'FAILED', attempts: 1 });
  const { logs } = await get(b, id);
  expect(logs.some((l) => /Step 2 "stuck" failed: the node running it stopped/.test(l.message))).toBe(true);
  const notes = await request(b.http!.url).get('/api/notifications').set(bearer(token));
  expect(notes.status).toBe(200);
  expect(
    (notes.body.notifications as Array<{ type: string; executionId?: string }>).some(
      (n) => n.type === 'recovery' && n.executionId === id,
    ),
  ).toBe(true);

  const retried = await request(b.http!.url)
    .post(`/api/executions/${id}/actions`)
    .set(bearer(token))
    .send({ action: 'retry' });
  expect(retried.status).toBe(200);
  const done = await waitFor(b, id, (e) => e.status === 'COMPLETED');
  expect(done.steps.map((s: { status: string; attempts: number }) => [s.status, s.attempts])).toEqual([
    ['COMPLETED', 1],
    ['COMPLETED', 2],
    ['COMPLETED', 1],
  ]);
  expect((await b.documents.repository(executionsCollection).findById(id))!.current).toBeUndefined();
});

it('two sweepers at once: one acts, the other finds nothing to do', async () => {
  // A step left behind by a node that is gone (written as such): lease lapsed, nobody runs it.
  const created = await request(b.http!.url)
    .post('/api/executions')
    .set(bearer(token))
    .send({ title: 'left behind', start: false, input: { steps: [{ op: 'incr', key: 'n' }] } });
  const id = created.body.execution.id as string;
  const repo = b.documents.repository(executionsCollection);
  const doc = (await repo.findById(id))!;
  const past = new Date(Date.now() - 1000);
  await repo.updateIfVersion(id, doc.version, {
    $set: {
      status: 'RUNNING',
      steps: [{ index: 0, name: 'gone', status: 'RUNNING', attempts: 1, effects: [], startedAt: past }],
      current: {
        index: 0,
        runId: 'gone',
        startedAt: past,
        deadline: new Date(Date.now() + 600_000),
        leaseUntil: past,
        leaseNode: 'gone',
      },
    },
  });
  const svc = createExecutionsService(executionServicesOf(b));
  const sweepers = [0, 1].map(() => new ExecutionSweeper(svc.store, b.system, silentLogger));
  const counts = await Promise.all(sweepers.map((s) => s.sweep()));
  expect(counts.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(1);
  const failed = await waitFor(b, id, (e) => e.status === 'FAILED');
  expect(failed.failure.whatFailed).toBe('Step 1 "gone": the node running it stopped');
  const { logs } = await get(b, id);
  // One failure line: only one sweeper (of the three: B's own timer too) wrote it.
  expect(logs.filter((l) => /failed: the node running it stopped/.test(l.message))).toHaveLength(1);
});
