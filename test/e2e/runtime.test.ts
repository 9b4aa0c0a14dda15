import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime, type Runtime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { silentLogger } from '../../src/logging/logger';
import { describeWithService } from '../support/services';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ars-e2e-'));
}

async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the embedded runtime (npm start with nothing configured)', () => {
  let dir: string;
  let runtime: Runtime | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves /health through the health actor with every embedded dependency up', async () => {
    runtime = await startRuntime(loadConfig({ DATA_DIR: dir, PORT: '0' }), silentLogger);
    // The dependency details are for the ops admin (ADMIN_TOKEN, generated into DATA_DIR here).
    const anonymous = await getJson(`${runtime.http!.url}/health`);
    expect(Object.keys(anonymous.body).sort()).toEqual(['status', 'timestamp', 'tools', 'version']);
    const { status, body } = await getJson(`${runtime.http!.url}/health`, {
      authorization: `Bearer ${runtime.secrets.adminToken}`,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      version: '6.6.7',
      tools: expect.any(Number),
      dependencies: {
        transport: { state: 'up', embedded: true },
        documents: { state: 'up', embedded: true },
        cache: { state: 'up', embedded: true },
      },
    });
    expect(new Date(body.timestamp as string).toString()).not.toBe('Invalid Date');
  });

  it('keeps its documents and secrets under DATA_DIR across a restart', async () => {
    runtime = await startRuntime(loadConfig({ DATA_DIR: dir, PORT: '0' }), silentLogger);
    const firstSecret = runtime.secrets.jwtSecret;
    await runtime.documents.db.collection('restart_probe').insertOne({ _id: 'kept' } as never);
    await runtime.stop();

    runtime = await startRuntime(loadConfig({ DATA_DIR: dir, PORT: '0' }), silentLogger);
    expect(runtime.secrets.jwtSecret).toBe(firstSecret);
    expect(await runtime.documents.db.collection('restart_probe').findOne({ _id: 'kept' } as never)).toEqual({
      _id: 'kept',
    });
  });

  it('refuses ROLE=api or ROLE=worker without a broker', async () => {
    await expect(
      startRuntime(loadConfig({ DATA_DIR: dir, PORT: '0', ROLE: 'worker' }), silentLogger),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('AMQP_URL') });
  });
});

describeWithService('amqp', 'an api process and a worker process over RabbitMQ', (amqpUrl) => {
  const runtimes: Runtime[] = [];
  const dirs: string[] = [];

  afterAll(async () => {
    for (const r of runtimes.reverse()) await r.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('answers /health on the api node from an actor hosted by the worker node', async () => {
    // Both share one document store (the worker's embedded server) the way they would share MongoDB.
    const workerDir = tempDir();
    dirs.push(workerDir);
    const common = { AMQP_URL: amqpUrl, PORT: '0', JWT_SECRET: 'j'.repeat(32) };
    const worker = await startRuntime(
      loadConfig({ ...common, DATA_DIR: workerDir, ROLE: 'worker', NODE_ID: `e2e-worker-${process.pid}` }),
      silentLogger,
    );
    runtimes.push(worker);
    expect(worker.http).toBeUndefined();

    const apiDir = tempDir();
    dirs.push(apiDir);
    const api = await startRuntime(
      loadConfig({ ...common, DATA_DIR: apiDir, ROLE: 'api', NODE_ID: `e2e-api-${process.pid}` }),
      silentLogger,
    );
    runtimes.push(api);
    expect(api.system.status().kinds).toEqual([]);
    expect(worker.system.status().kinds).toContain('ops');

    const { status, body } = await getJson(`${api.http!.url}/health`, {
      authorization: `Bearer ${api.secrets.adminToken}`,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ dependencies: { transport: { state: 'up', embedded: false } } });
  });
});
