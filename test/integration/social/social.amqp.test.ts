import { randomBytes } from 'node:crypto';
import { socialQueueCollection } from '../../../actors/social/social.collection';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { waitFor } from '../../support/async';
import { tempDirs } from '../../support/cluster-fixtures';
import { FakeXServer } from '../../support/fake-x-server';
import { describeWithService } from '../../support/services';
import { clientFor, LogCapture, signup } from '../vault/support/vault-harness';
import { CLIENT_ID, CLIENT_SECRET, connectX } from './social-harness';

const POSTS = 20;

/**
 * Two nodes over RabbitMQ sharing one document store, both offering the social publisher duty
 * every 50 ms. The crew (kept in the document store without Redis) makes one of them the duty's
 * active node, and two nodes starting together may both run it for a beat; the front door also
 * forces some posts as they fall due, racing the duty: only the publisher's atomic claim of each
 * queue item stands between those runs. Twenty posts fall due at once: each is sent to X exactly
 * once.
 */
describeWithService('amqp', 'social publisher on two nodes over RabbitMQ', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const suffix = randomBytes(4).toString('hex');
  const dirs = tempDirs('social');
  const fake = new FakeXServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const logs = [new LogCapture(), new LogCapture()];
  let mongo: EmbeddedMongo;
  let nodes: Runtime[] = [];

  beforeAll(async () => {
    const urls = await fake.start();
    mongo = await startEmbeddedMongo({ dir: dirs.make('mongo') });
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}social_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
      ALLOW_LOOPBACK_HTTP: 'true',
      X_API_BASE_URL: urls.apiBaseUrl,
      X_AUTH_BASE_URL: urls.authBaseUrl,
      X_CLIENT_ID: CLIENT_ID,
      X_CLIENT_SECRET: CLIENT_SECRET,
      SOCIAL_PUBLISH_INTERVAL_MS: '50',
      SOCIAL_DAILY_CAP: '1000',
      LOG_LEVEL: 'debug',
    };
    const roles = ['all', 'worker'] as const;
    nodes = await Promise.all(
      roles.map((role, i) =>
        startRuntime(
          loadConfig({
            ...shared,
            ROLE: role,
            NODE_ID: `social-${role}-${suffix}`,
            DATA_DIR: dirs.make(role),
            PORT: '0',
          }),
          logs[i]!.logger(`social-${role}-${suffix}`),
          { identity: { bcryptCost: 4 } },
        ),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    // What the broker links went through, for a run that failed on a loaded machine.
    const linkEvents = logs.flatMap((capture) =>
      capture
        .text()
        .split('\n')
        .filter((line) => /amqp (connection lost|channel closed|setup failed)/.test(line)),
    );
    if (linkEvents.length > 0) console.warn(`AMQP link events during the test:\n${linkEvents.join('\n')}`);
    const kinds = [...new Set(nodes.flatMap((n) => n.system.status().kinds))];
    for (const node of nodes) await node.stop().catch(() => undefined);
    await mongo?.close();
    await fake.close();
    await deleteClusterTopology(amqpUrl, prefix, {
      kinds,
      nodeIds: nodes.map((n) => n.config.NODE_ID!).filter(Boolean),
    });
    dirs.removeAll();
  }, 60_000);

  it('publishes every due post exactly once while both nodes run the duty', async () => {
    const front = nodes[0]!;
    // A broker reconnect under a loaded machine refuses calls with 503 `mayHaveRun: false`; those
    // are retried (the client's documented duty), which the exactly-once checks below do not excuse.
    const api = clientFor(() => front.http!.url, { retryUnsent: true });
    const owner = await signup(api, front);
    const { id: accountId } = await connectX({ api }, owner);

    // Distinct texts (random words): the guardrails pass each one.
    const texts = Array.from({ length: POSTS }, (_, i) => `Post ${i}: ${randomBytes(20).toString('hex')}`);
    const dueAt = new Date(Date.now() + 3000).toISOString();
    const queueIds: string[] = [];
    for (const text of texts) {
      const created = await api.post('/api/x/drafts', owner.auth, { accountId, text });
      expect(created.body.draft.guardrail_status).toBe('pass');
      const approved = await api.post(`/api/x/drafts/${created.body.draft.id}/approve`, owner.auth, {
        scheduledFor: dueAt,
      });
      expect(approved.status).toBe(200);
      queueIds.push(approved.body.queueItem.id);
    }
    // Meanwhile the front door forces a few as they fall due: 200 when it won the claim, 409 when a duty had it.
    await new Promise((r) => setTimeout(r, Math.max(0, new Date(dueAt).getTime() - Date.now())));
    const forced = await Promise.all(
      queueIds.slice(0, 5).map((queueId) => api.post('/api/x/publish', owner.auth, { queueId })),
    );
    for (const res of forced) expect([200, 409]).toContain(res.status);

    const queue = front.documents.repository(socialQueueCollection);
    await waitFor(
      async () => (await queue.count({ _id: { $in: queueIds }, publish_status: 'published' })) === POSTS,
      'every post published',
      60_000,
    );
    // Let both duties run a while longer: nothing more may be sent.
    await new Promise((r) => setTimeout(r, 500));

    expect(fake.tweets).toHaveLength(POSTS);
    expect(fake.stats.postAttempts).toBe(POSTS);
    expect(fake.tweets.map((t) => t.text).sort()).toEqual([...texts].sort());
    const items = await queue.find({ _id: { $in: queueIds } }, { limit: 0 });
    expect(items.every((i) => i.attempts === 1 && i.postId && !i.claim)).toBe(true);
    expect(new Set(items.map((i) => i.postId)).size).toBe(POSTS);
    const executions = await front.documents.db
      .collection('executions')
      .countDocuments({ type: 'SOCIAL_PUBLISH', accountId: owner.accountId });
    expect(executions).toBe(POSTS);
    // The duty ran (on the node the crew made active, or on both for a beat at start).
    const ran = logs.filter((capture) =>
      /"duty":"social-publisher"[^\n]*"msg":"crew: duty ran"/.test(capture.text()),
    );
    expect(ran.length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
