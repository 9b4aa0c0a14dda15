import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';

jest.setTimeout(60_000);

/**
 * The pieces of a model's reply across RabbitMQ: the front door (ROLE=api) takes the request, a
 * worker (ROLE=worker) runs the chat step and asks the model; the pieces come back on the stream of
 * the request (`execution.createAndFollow`), in order, before the final reply.
 */
describeWithService('amqp', 'intent stream pieces over RabbitMQ', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const dirs: string[] = [];
  const runtimes: Runtime[] = [];
  let mongo: EmbeddedMongo;
  let model: http.Server;
  let front: Runtime;

  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-intent-amqp-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    model = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        void (async () => {
          for (const piece of ['Across', ' the', ' broker']) {
            res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
            await new Promise((r) => setTimeout(r, 20));
          }
          res.end('data: [DONE]\n\n');
        })();
      });
    });
    await new Promise<void>((r) => model.listen(0, '127.0.0.1', () => r()));
    mongo = await startEmbeddedMongo({ dir: tmp() });
    const suffix = randomBytes(4).toString('hex');
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}intent_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      LLM_MODEL: 'broker-model',
    };
    for (const role of ['worker', 'api'] as const) {
      runtimes.push(
        await startRuntime(
          loadConfig({
            ...shared,
            ROLE: role,
            NODE_ID: `intent-${role}-${suffix}`,
            DATA_DIR: tmp(),
            PORT: '0',
          }),
          silentLogger,
          { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
        ),
      );
    }
    front = runtimes[1]!;
  });
  afterAll(async () => {
    const kinds = runtimes[0]?.system.status().kinds ?? [];
    const nodeIds = runtimes.map((r) => r.config.NODE_ID);
    for (const r of [...runtimes].reverse()) await r.stop().catch(() => undefined);
    await mongo?.close();
    await new Promise<void>((r) => model?.close(() => r()));
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds });
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('sends the pieces from the worker to the front door, in order, then the final reply', async () => {
    const signup = await request(front.http!.url)
      .post('/api/signup')
      .send({
        email: `intent-${randomBytes(5).toString('hex')}@example.com`,
        password: 'correct horse battery',
        accountType: 'retail',
        selectedPlan: 'retail_pro',
      });
    expect(signup.status).toBe(201);
    const res = await fetch(`${front.http!.url}/api/studio/intent/stream`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${signup.body.credentials.bearerToken as string}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ message: 'say something', sessionId: 's' }),
    });
    const events = (await res.text())
      .split('\n\n')
      .filter((b) => b.includes('data: '))
      .map((b) => JSON.parse(/^data: (.*)$/m.exec(b)![1]!) as Record<string, unknown>);
    expect(events.map((e) => e.type)).toEqual(['execution', 'reply', 'reply', 'reply', 'reply', 'done']);
    expect(events.slice(1, 4).map((e) => [e.final, e.delta])).toEqual([
      [false, 'Across'],
      [false, ' the'],
      [false, ' broker'],
    ]);
    expect(events[4]).toMatchObject({ final: true, text: 'Across the broker', model: 'broker-model' });
    expect(events[5]).toMatchObject({ status: 'COMPLETED' });
  });
});
