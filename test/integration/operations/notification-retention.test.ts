import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { notificationsCollection } from '../../../actors/notifications/notifications.collection';
import type { NotificationDocument } from '../../../schemas/documents/notification';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';

/**
 * The `notification-retention` duty, run by `POST /api/ops/crew/cron`: read and archived
 * notifications older than NOTIFICATION_RETENTION_DAYS go, unread ones and recent ones stay.
 */
const CRON_SECRET = `cron-${randomBytes(12).toString('hex')}`;
const DAY = 24 * 60 * 60_000;
let dir: string;
let runtime: Runtime;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-retention-'));
  runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', CRON_SECRET, NOTIFICATION_RETENTION_DAYS: '30' }),
    silentLogger,
  );
});
afterAll(async () => {
  await runtime?.stop(200);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('cron deletes old read and archived notifications, keeps unread and recent ones', async () => {
  const repo = runtime.documents.repository(notificationsCollection);
  const doc = (status: NotificationDocument['status'], ageDays: number): NotificationDocument => {
    const at = new Date(Date.now() - ageDays * DAY);
    return {
      _id: `ntf_${randomBytes(12).toString('hex')}`,
      accountId: 'acc_retention',
      type: 'task',
      title: `${status} ${ageDays}d`,
      body: '',
      status,
      createdAt: at,
      updatedAt: at,
      version: 0,
    };
  };
  const docs = [
    doc('read', 40),
    doc('archived', 31),
    doc('unread', 400),
    doc('read', 29),
    doc('archived', 1),
  ];
  for (const d of docs) await repo.insert(d);

  const res = await request(runtime.http!.url)
    .post('/api/ops/crew/cron')
    .set('Authorization', `Bearer ${CRON_SECRET}`);
  expect(res.status).toBe(200);
  const run = (res.body.result.ran as Array<{ duty: string; ok: boolean; items: number }>).find(
    (r) => r.duty === 'notification-retention',
  );
  expect(run).toMatchObject({ ok: true, items: 2 });
  const left = (await repo.find({ accountId: 'acc_retention' })).map((d) => d.title).sort();
  expect(left).toEqual(['archived 1d', 'read 29d', 'unread 400d']);

  // Nothing more to delete on the next pass.
  const again = await request(runtime.http!.url)
    .post('/api/ops/crew/cron')
    .set('Authorization', `Bearer ${CRON_SECRET}`);
  expect(again.body.result.ran).toEqual(
    expect.arrayContaining([expect.objectContaining({ duty: 'notification-retention', ok: true, items: 0 })]),
  );
});
