import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';

/**
 * `/api/ops/crew*` on one process (`ROLE=all`, in-process transport): the crew shows one node with
 * every feature degraded, details only for ops admins (ADMIN_TOKEN or an account in ADMIN_EMAILS),
 * bootstrap is idempotent, cron runs every duty with CRON_SECRET or ADMIN_TOKEN, failover is
 * refused without a standby.
 */

const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`;
const CRON_SECRET = `cron-${randomBytes(12).toString('hex')}`;
const ADMIN_EMAIL = `ops-${randomBytes(4).toString('hex')}@example.com`;
let dir: string;
let runtime: Runtime;
let url: string;

async function signup(email: string): Promise<string> {
  const res = await request(url)
    .post('/api/signup')
    .send({ email, password: 'correct horse battery', accountType: 'retail', selectedPlan: 'retail_pro' });
  expect(res.status).toBe(201);
  return res.body.credentials.bearerToken as string;
}
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-ops-'));
  runtime = await startRuntime(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      ADMIN_TOKEN,
      CRON_SECRET,
      ADMIN_EMAILS: ` ${ADMIN_EMAIL.toUpperCase()} , other@example.com`,
      CREW_HEARTBEAT_MS: '200',
    }),
    silentLogger,
    { identity: { bcryptCost: 4 } },
  );
  url = runtime.http!.url;
});
afterAll(async () => {
  await runtime?.stop(200);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/ops/crew', () => {
  it('anyone gets the counts: one node, every feature degraded (no standby), no matrix', async () => {
    for (const headers of [{}, bearer('not-a-token'), bearer(`${ADMIN_TOKEN}x`)]) {
      const res = await request(url).get('/api/ops/crew').set(headers);
      expect(res.status).toBe(200);
      const { summary, coverage, requiresAuthForDetails, settings } = res.body;
      expect(requiresAuthForDetails).toBe(true);
      expect(summary.nodes).toBe(1);
      expect(summary.features).toBeGreaterThanOrEqual(8);
      expect(summary).toMatchObject({ fullyCovered: 0, degraded: summary.features, uncovered: 0 });
      expect(coverage).toEqual({ status: 'degraded' });
      expect(settings).toMatchObject({ heartbeatMs: 200, leaseMs: 600, store: 'memory' });
    }
  });

  it('an ops admin (ADMIN_TOKEN, or an account in ADMIN_EMAILS) gets the matrix and the nodes', async () => {
    const adminAccount = await signup(ADMIN_EMAIL);
    for (const token of [ADMIN_TOKEN, adminAccount]) {
      const res = await request(url).get('/api/ops/crew').set(bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.requiresAuthForDetails).toBe(false);
      const slugs = res.body.coverage.items.map((i: { featureSlug: string }) => i.featureSlug);
      expect(slugs).toEqual(
        expect.arrayContaining([
          'actor:execution',
          'actor:vault',
          'runtime:sandbox',
          'runtime:http-egress',
          'runtime:connectors',
          'duty:execution-lease-sweeper',
          'duty:notification-retention',
          'duty:vault-grant-expiry',
        ]),
      );
      const node = runtime.system.nodeId;
      for (const item of res.body.coverage.items) {
        expect(item).toMatchObject({ coverage: 'degraded', active: { nodeId: node }, standby: null });
        expect(item.active.heartbeatAgeMs).toBeGreaterThanOrEqual(0);
      }
      expect(res.body.coverage.nodes).toEqual([
        expect.objectContaining({
          nodeId: node,
          role: 'all',
          duties: [
            'app-update-refresh',
            'execution-lease-sweeper',
            'notification-retention',
            'social-publisher',
            'vault-grant-expiry',
          ],
        }),
      ]);
    }
    // Another account is not an admin: the public view.
    const other = await signup(`user-${randomBytes(4).toString('hex')}@example.com`);
    const res = await request(url).get('/api/ops/crew').set(bearer(other));
    expect(res.body.requiresAuthForDetails).toBe(true);
    expect(res.body.coverage.items).toBeUndefined();
  });
});

describe('ops-admin routes', () => {
  it('401 without credentials, 403 for an account not in ADMIN_EMAILS, 200 for an admin; bootstrap is idempotent', async () => {
    expect((await request(url).post('/api/ops/crew/bootstrap')).status).toBe(401);
    const other = await signup(`user-${randomBytes(4).toString('hex')}@example.com`);
    const forbidden = await request(url).post('/api/ops/crew/bootstrap').set(bearer(other));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('PERMISSION_DENIED');
    // The cron secret is not an admin credential.
    expect((await request(url).post('/api/ops/crew/bootstrap').set(bearer(CRON_SECRET))).status).toBe(401);

    const first = await request(url).post('/api/ops/crew/bootstrap').set(bearer(ADMIN_TOKEN));
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    const second = await request(url).post('/api/ops/crew/bootstrap').set(bearer(ADMIN_TOKEN));
    const all = [...first.body.result.crews.assigned, ...first.body.result.crews.alreadyAssigned].sort();
    expect(second.body.result.crews).toEqual({ assigned: [], alreadyAssigned: all });
    // The indexes were declared at boot: bootstrap finds them all in place.
    expect(first.body.result.indexes.created).toEqual([]);
    expect(first.body.result.indexes.alreadyThere).toBeGreaterThan(10);
    // The skill store's seed catalog again: seeded at boot, so nothing new (idempotent).
    expect(first.body.result.catalogs.skills).toMatchObject({ inserted: 0, updated: 0 });
    expect(first.body.result.catalogs.skills.unchanged).toBeGreaterThanOrEqual(30);
    expect(first.body.result.catalogs.apps).toMatchObject({ inserted: 0, updated: 0, skipped: [] });
    await runtime.documents.db.collection('executions').dropIndex('lease_until');
    const third = await request(url).post('/api/ops/crew/bootstrap').set(bearer(ADMIN_TOKEN));
    expect(third.body.result.indexes.created).toEqual(['executions.lease_until']);
  });

  it('failover: 400 without featureSlug, 404 for an unknown feature, 409 without a live standby', async () => {
    const post = (body: object) =>
      request(url).post('/api/ops/crew/failover').set(bearer(ADMIN_TOKEN)).send(body);
    const missing = await post({ reason: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/featureSlug/);
    expect((await post({ featureSlug: 'duty:nope' })).status).toBe(404);
    const alone = await post({ featureSlug: 'duty:vault-grant-expiry', reason: 'drill' });
    expect(alone.status).toBe(409);
    expect(alone.body.error).toMatch(/no live standby/);
    expect((await request(url).post('/api/ops/crew/failover').send({ featureSlug: 'duty:x' })).status).toBe(
      401,
    );
  });
});

describe('POST /api/ops/crew/cron', () => {
  it('runs every duty once with CRON_SECRET or ADMIN_TOKEN; anything else is 401', async () => {
    for (const token of [CRON_SECRET, ADMIN_TOKEN]) {
      const res = await request(url).post('/api/ops/crew/cron').set(bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const ran = res.body.result.ran as Array<{ duty: string; ok: boolean; items: number; ms: number }>;
      expect(ran.map((r) => r.duty).sort()).toEqual([
        'app-update-refresh',
        'execution-lease-sweeper',
        'notification-retention',
        'social-publisher',
        'vault-grant-expiry',
      ]);
      for (const r of ran) expect(r).toMatchObject({ ok: true, items: 0 });
    }
    expect((await request(url).post('/api/ops/crew/cron')).status).toBe(401);
    const wrong = await request(url)
      .post('/api/ops/crew/cron')
      .set(bearer(`${CRON_SECRET}x`));
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('UNAUTHORIZED');
  });
});
