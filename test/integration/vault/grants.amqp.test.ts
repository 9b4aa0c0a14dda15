import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKSPACE_PANIC_BROADCAST } from '../../../schemas/messages/tools';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import {
  assertNoLeaks,
  clientFor,
  LogCapture,
  mintCredential,
  secretValue,
  signup,
  type Account,
  type VaultClient,
} from './support/vault-harness';

/**
 * The vault across processes' worth of nodes: two workers (ROLE=worker) and a front door
 * (ROLE=api) on RabbitMQ, sharing one document store (an embedded MongoDB server started here,
 * reached by all three through MONGODB_URL). 100 concurrent consumes of one grant are spread over
 * both workers, which hold the grant actor at the same time: the conditional write still lets
 * exactly one win. A panic broadcast from the front door reaches the workers.
 */
describeWithService('amqp', 'vault grants over RabbitMQ with two workers', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const logs = new LogCapture();
  const dirs: string[] = [];
  const values: string[] = [];
  let mongoDir: string;
  let mongo: EmbeddedMongo;
  let workers: Runtime[] = [];
  let front: Runtime;
  let api: VaultClient;
  let a: Account;
  let credential: string;
  let secretId: string;
  let value: string;

  const boot = (role: 'api' | 'worker', nodeId: string, shared: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-vault-${role}-`));
    dirs.push(dir);
    return startRuntime(
      loadConfig({ ...shared, ROLE: role, NODE_ID: nodeId, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'trace' }),
      logs.logger(nodeId),
      {
        identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } },
        vault: { sweepIntervalMs: 0 },
      },
    );
  };

  beforeAll(async () => {
    mongoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-vault-mongo-'));
    mongo = await startEmbeddedMongo({ dir: mongoDir });
    const suffix = randomBytes(4).toString('hex');
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}vault_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    };
    workers = [
      await boot('worker', `vault-w1-${suffix}`, shared),
      await boot('worker', `vault-w2-${suffix}`, shared),
    ];
    front = await boot('api', `vault-api-${suffix}`, shared);
    api = clientFor(() => front.http!.url);
    a = await signup(api, front);
    credential = await mintCredential(api, a);
    values.push(credential);
    value = secretValue('AMQP');
    values.push(value);
    const created = await api.post('/api/vault', a.auth, { name: 'SHARED_KEY', value });
    expect(created.status).toBe(201);
    secretId = created.body.secret.id as string;
    await api.post('/api/vault/assignments', a.auth, { secretId, subjectType: 'skill', subjectId: 'runner' });
  }, 90_000);

  afterAll(async () => {
    const kinds = workers[0]?.system.status().kinds ?? [];
    const nodes = [...workers, front].filter(Boolean).map((r) => r.config.NODE_ID!);
    for (const runtime of [front, ...workers]) await runtime?.stop();
    await mongo?.close();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodes });
    if (mongo) assertNoLeaks(values, [logs.text()], [mongoDir, ...dirs]);
    for (const dir of [mongoDir, ...dirs]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const grant = async () => {
    const res = await api.post('/api/vault/access', a.auth, {
      action: 'runtime',
      workspaceId: a.workspaceId,
      secretName: 'SHARED_KEY',
      subjectType: 'skill',
      subjectId: 'runner',
    });
    expect(res.status).toBe(200);
    return res.body.grant.id as string;
  };

  it('100 parallel consumes spread over two workers: exactly one gets the value', async () => {
    const id = await grant();
    const before = workers.map((w) => w.system.status().actors);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => api.consume(`Bearer ${credential}`, { grantId: id })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 403)).toHaveLength(99);
    expect(answers.find((r) => r.status === 200)!.body.secret).toEqual({ name: 'SHARED_KEY', value });
    // Both workers activated the grant actor: the race was between nodes, not inside one mailbox.
    const after = workers.map((w) => w.system.status().actors);
    expect(after[0]).toBeGreaterThan(before[0]);
    expect(after[1]).toBeGreaterThan(before[1]);
    const audit = await api.get('/api/vault/audit?event=consumed', a.auth);
    expect(audit.body.entries.filter((e: { grantId: string }) => e.grantId === id)).toHaveLength(1);
  }, 60_000);

  it('cleanup and a rotated value work across nodes', async () => {
    const id = await grant();
    const cleaned = await api.consume(`Bearer ${credential}`, { grantId: id, action: 'cleanup' });
    expect(cleaned.body).toEqual({ grant: { id, status: 'revoked' } });
    const next = secretValue('AMQP2');
    values.push(next);
    expect((await api.patch('/api/vault', a.auth, { secretId, action: 'rotate', value: next })).status).toBe(
      200,
    );
    const res = await api.consume(`Bearer ${credential}`, { grantId: await grant() });
    expect(res.body.secret.value).toBe(next);
  });

  it('a panic broadcast from the front door revokes the workspace’s grants on the workers', async () => {
    const ids = [await grant(), await grant()];
    await front.system.broadcast(WORKSPACE_PANIC_BROADCAST, { workspaceId: a.workspaceId });
    const grants = front.documents.db.collection<{ _id: string; status: string }>('vault_grants');
    const deadline = Date.now() + 10_000;
    while ((await grants.countDocuments({ _id: { $in: ids }, status: 'revoked' })) < ids.length) {
      if (Date.now() > deadline) throw new Error('grants not revoked by the panic');
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const id of ids) {
      expect((await api.consume(`Bearer ${credential}`, { grantId: id })).body.reason).toBe('grant_revoked');
    }
    // Both workers heard the broadcast; each grant was revoked (and audited) once.
    const revoked = await api.get('/api/vault/audit?event=revoked', a.auth);
    const panicIds = revoked.body.entries
      .filter((e: { reason?: string }) => e.reason === 'panic')
      .map((e: { grantId: string }) => e.grantId);
    expect(panicIds.sort()).toEqual([...ids].sort());
  });
});
