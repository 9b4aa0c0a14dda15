import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { waitFor } from '../../support/async';
import { killAllChildren, startChild, type ChildHandle } from '../../support/child-process';
import { describeWithService } from '../../support/services';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, checked by the assertions
type Loose = Record<string, any>;

const WORKER = path.join(__dirname, 'support/crew-worker.child.ts');

/**
 * The crew of real processes over RabbitMQ and Redis: a front door (ROLE=api) in this process and
 * two workers in child processes. The crew shows the three nodes and every worker feature fully
 * covered; a failover moves the `probe` duty to the other worker (its next runs happen there, none
 * on the demoted one); a worker killed with SIGKILL drops out within its lease and its features
 * turn degraded, the duty back on the survivor.
 */
describeWithService('amqp', 'the crew over RabbitMQ', (amqpUrl) => {
  describeWithService('redis', 'with Redis', (redisUrl) => {
    const prefix = uniqueAmqpPrefix();
    const suffix = randomBytes(4).toString('hex');
    const ADMIN_TOKEN = `admin-${suffix}-${randomBytes(8).toString('hex')}`;
    const CRON_SECRET = `cron-${suffix}-${randomBytes(8).toString('hex')}`;
    const dirs: string[] = [];
    let mongo: EmbeddedMongo;
    let shared: Record<string, string>;
    let front: Runtime;
    const workers = new Map<string, ChildHandle>();

    const tmp = (name: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-crew-${name}-`));
      dirs.push(dir);
      return dir;
    };
    const crew = async (): Promise<Loose> => {
      const res = await request(front.http!.url)
        .get('/api/ops/crew')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`);
      expect(res.status).toBe(200);
      return res.body as Loose;
    };
    const item = (body: Loose, slug: string) =>
      (body.coverage.items as Loose[]).find((i) => i.featureSlug === slug);
    const runsOf = (nodeId: string) =>
      workers.get(nodeId)!.messages.filter((m) => (m as Loose).event === 'duty').length;

    beforeAll(async () => {
      mongo = await startEmbeddedMongo({ dir: tmp('mongo') });
      shared = {
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        REDIS_URL: redisUrl,
        MONGODB_URL: `${mongo.url}crew_${suffix}`,
        JWT_SECRET: randomBytes(24).toString('hex'),
        VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
        ADMIN_TOKEN,
        CRON_SECRET,
        CREW_HEARTBEAT_MS: '200',
      };
      front = await startRuntime(
        loadConfig({
          ...shared,
          ROLE: 'api',
          NODE_ID: `crew-api-${suffix}`,
          DATA_DIR: tmp('api'),
          PORT: '0',
        }),
        silentLogger,
      );
      for (const n of [1, 2]) {
        const nodeId = `crew-w${n}-${suffix}`;
        const child = startChild(WORKER, {
          ...shared,
          ROLE: 'worker',
          NODE_ID: nodeId,
          DATA_DIR: tmp(`w${n}`),
          LOG_LEVEL: 'silent',
        });
        workers.set(nodeId, child);
      }
      for (const child of workers.values()) {
        await child.waitForMessage<Loose>((m) => m.event === 'ready', 'worker ready', 30_000);
      }
    }, 60_000);

    afterAll(async () => {
      await killAllChildren();
      const kinds =
        (await crew().catch(() => undefined))?.coverage.nodes.flatMap((n: Loose) => n.kinds) ?? [];
      await front?.stop().catch(() => undefined);
      await mongo?.close();
      await deleteClusterTopology(amqpUrl, prefix, {
        kinds: [...new Set<string>(kinds)],
        nodeIds: [`crew-api-${suffix}`, ...workers.keys()],
      });
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('shows the three nodes; failover moves a duty to the other worker; a killed worker drops out', async () => {
      const [w1, w2] = [...workers.keys()];
      await waitFor(async () => (await crew()).summary.nodes === 3, 'the crew shows three nodes', 15_000);
      let body = await crew();
      expect(body.coverage.nodes.map((n: Loose) => n.nodeId).sort()).toEqual(
        [`crew-api-${suffix}`, w1, w2].sort(),
      );
      const api = body.coverage.nodes.find((n: Loose) => n.role === 'api');
      expect(api).toMatchObject({ kinds: [], duties: [], runtime: [] });
      for (const slug of ['actor:execution', 'runtime:sandbox', 'duty:vault-grant-expiry', 'duty:probe']) {
        await waitFor(
          async () => item(await crew(), slug)?.coverage === 'fullyCovered',
          `${slug} covered`,
          10_000,
        );
      }
      body = await crew();
      expect(body.summary).toMatchObject({ nodes: 3, uncovered: 0, degraded: 0 });

      // The duty runs on its active worker only.
      const probe = item(body, 'duty:probe')!;
      const active = probe.active.nodeId as string;
      const standby = probe.standby.nodeId as string;
      expect(new Set([active, standby])).toEqual(new Set([w1, w2]));
      // (While the two workers were starting, each may have seen only itself for one beat.)
      const standbyRuns = runsOf(standby);
      const activeRuns = runsOf(active);
      await waitFor(() => runsOf(active) >= activeRuns + 3, 'probe runs on the active worker', 10_000);
      expect(runsOf(standby)).toBe(standbyRuns);

      const res = await request(front.http!.url)
        .post('/api/ops/crew/failover')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .send({ featureSlug: 'duty:probe', reason: 'drill' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        result: {
          featureSlug: 'duty:probe',
          previous: { active, standby },
          active: standby,
          standby: active,
          coverage: 'fullyCovered',
          failover: { from: active, to: standby, by: 'ADMIN_TOKEN', reason: 'drill' },
        },
      });
      // Its next runs happen on the promoted worker, and none any more on the demoted one.
      await waitFor(() => runsOf(standby) >= 2, 'probe runs on the promoted worker', 10_000);
      const demotedRuns = runsOf(active);
      await waitFor(() => runsOf(standby) >= 5, 'more runs on the promoted worker', 10_000);
      expect(runsOf(active)).toBe(demotedRuns);
      expect(item(await crew(), 'duty:probe')).toMatchObject({ active: { nodeId: standby } });

      // Cron from the front door runs the duties it knows once, now.
      const cron = await request(front.http!.url)
        .post('/api/ops/crew/cron')
        .set('Authorization', `Bearer ${CRON_SECRET}`);
      expect(cron.status).toBe(200);
      expect(cron.body.result.ran.map((r: Loose) => r.duty).sort()).toEqual([
        'app-update-refresh',
        'execution-lease-sweeper',
        'notification-retention',
        'social-publisher',
        'vault-grant-expiry',
      ]);

      // The promoted worker dies: it drops out within its lease; the duty is back on the survivor.
      const before = runsOf(active);
      await workers.get(standby)!.kill('SIGKILL');
      await waitFor(async () => (await crew()).summary.nodes === 2, 'the killed worker dropped out', 10_000);
      body = await crew();
      expect(item(body, 'duty:probe')).toMatchObject({
        coverage: 'degraded',
        active: { nodeId: active },
        standby: null,
      });
      expect(item(body, 'actor:execution')).toMatchObject({
        coverage: 'degraded',
        active: { nodeId: active },
      });
      expect(body.summary).toMatchObject({ fullyCovered: 0, uncovered: 0 });
      await waitFor(() => runsOf(active) > before, 'probe runs on the survivor again', 10_000);
    }, 90_000);
  });
});
