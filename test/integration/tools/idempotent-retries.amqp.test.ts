import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService, serviceUrl } from '../../support/services';
import { replyFaults, type ReplyFaults } from './support/reply-faults';

/**
 * Idempotent retries across a cluster: two front doors (ROLE=api) and two workers on RabbitMQ,
 * sharing Redis (idempotency records, the kernel's shared dedupe record, agents' memory) and one
 * document store. A retry goes to the other front door and may land on the other worker: the
 * first outcome is found all the same, and the counter moves once.
 */
describeWithService(
  'amqp',
  'idempotent retries over RabbitMQ with two front doors and two workers',
  (amqpUrl) => {
    const redisUrl = serviceUrl('redis');
    const block = redisUrl ? describe : describe.skip;
    block(redisUrl ? 'with Redis' : 'with Redis (redis not reachable: skipped)', () => {
      const prefix = uniqueAmqpPrefix();
      const dirs: string[] = [];
      let mongo: EmbeddedMongo;
      let workers: Runtime[] = [];
      let fronts: Runtime[] = [];
      let faults: ReplyFaults;

      const boot = (role: 'api' | 'worker', nodeId: string, shared: Record<string, string>) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-idem-${role}-`));
        dirs.push(dir);
        return startRuntime(
          loadConfig({ ...shared, ROLE: role, NODE_ID: nodeId, DATA_DIR: dir, PORT: '0' }),
          silentLogger,
          { identity: { bcryptCost: 4 } },
        );
      };

      beforeAll(async () => {
        const mongoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-idem-mongo-'));
        dirs.push(mongoDir);
        mongo = await startEmbeddedMongo({ dir: mongoDir });
        const suffix = randomBytes(4).toString('hex');
        const shared = {
          AMQP_URL: amqpUrl,
          AMQP_PREFIX: prefix,
          REDIS_URL: redisUrl!,
          MONGODB_URL: `${mongo.url}idem_${suffix}`,
          JWT_SECRET: randomBytes(24).toString('hex'),
          // A lost reply answers 504 after this; records are kept the shortest window allowed.
          REQUEST_TIMEOUT_MS: '2000',
          IDEMPOTENCY_TTL_MS: '60000',
          // The /register limit counts per address in the shared Redis, across suites and runs (and
          // bearer-tokens.redis.test.ts uses it up on purpose): not what this suite tests.
          RATE_LIMITS: 'off',
        };
        workers = [
          await boot('worker', `idem-w1-${suffix}`, shared),
          await boot('worker', `idem-w2-${suffix}`, shared),
        ];
        fronts = [
          await boot('api', `idem-api1-${suffix}`, shared),
          await boot('api', `idem-api2-${suffix}`, shared),
        ];
        faults = replyFaults(workers);
      }, 90_000);

      afterAll(async () => {
        faults?.restore();
        const kinds = workers[0]?.system.status().kinds ?? [];
        const nodes = [...workers, ...fronts].map((r) => r.config.NODE_ID);
        for (const runtime of [...fronts, ...workers]) await runtime?.stop();
        await mongo?.close();
        await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodes });
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
      }, 60_000);

      const front = (i: 0 | 1) => request(fronts[i].http!.url);

      async function agent(): Promise<string> {
        const res = await front(0)
          .post('/register')
          .send({ name: `idem-agent ${randomBytes(4).toString('hex')}` });
        if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.token as string;
      }

      const call = (i: 0 | 1, token: string, tool: string, input: Record<string, unknown>, key?: string) => {
        const r = front(i).post('/mcp').set('Authorization', `Bearer ${token}`);
        if (key) r.set('Idempotency-Key', key);
        return r.send({ tool, input });
      };
      const counter = async (token: string, name: string) =>
        (await call(0, token, 'mem_get', { key: name })).body.result as { value: unknown };

      it('a mem_incr whose reply was lost on a worker: retried on the other front door, it moves the counter once', async () => {
        for (let round = 0; round < 3; round++) {
          const token = await agent();
          const key = randomUUID();
          faults.dropNext();
          const lost = await call(0, token, 'mem_incr', { key: 'hits', by: 1 }, key);
          expect(lost.status).toBe(504);
          expect(lost.body).toMatchObject({ success: false, code: 'DEADLINE_EXCEEDED', mayHaveRun: true });

          const retry = await call(1, token, 'mem_incr', { key: 'hits', by: 1 }, key);
          expect(retry.status).toBe(200);
          expect(retry.body).toEqual({ success: true, result: { value: 1 } });
          const replay = await call(0, token, 'mem_incr', { key: 'hits', by: 1 }, key);
          expect(replay.body).toEqual({ success: true, result: { value: 1 } });
          expect(replay.headers['idempotent-replayed']).toBe('true');
          expect(await counter(token, 'hits')).toEqual({ value: 1, found: true });
        }
        expect(faults.dropped).toBe(3);
      }, 60_000);

      it('an answer lost with its connection on one front door is replayed by the other', async () => {
        const token = await agent();
        const key = randomUUID();
        const held = faults.holdNext();
        const body = JSON.stringify({ tool: 'mem_incr', input: { key: 'jobs', by: 4 } });
        const lost = http.request(`${fronts[0].http!.url}/mcp`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'Idempotency-Key': key,
          },
        });
        lost.on('error', () => undefined);
        lost.end(body);
        await held;
        lost.destroy();
        faults.release();

        const retry = await call(1, token, 'mem_incr', { key: 'jobs', by: 4 }, key);
        expect(retry.status).toBe(200);
        expect(retry.body).toEqual({ success: true, result: { value: 4 } });
        expect(await counter(token, 'jobs')).toEqual({ value: 4, found: true });
      }, 30_000);

      it('concurrent duplicates on both front doors run once', async () => {
        const token = await agent();
        const key = randomUUID();
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            call((i % 2) as 0 | 1, token, 'mem_incr', { key: 'burst', by: 3 }, key),
          ),
        );
        for (const a of answers) expect(a.body).toEqual({ success: true, result: { value: 3 } });
        expect(await counter(token, 'burst')).toEqual({ value: 3, found: true });
        const other = await call(1, token, 'mem_incr', { key: 'burst', by: 4 }, key);
        expect(other.status).toBe(409);
        expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      }, 30_000);
    });
  },
);
