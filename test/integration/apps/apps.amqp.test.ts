import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';
import {
  mintCredential,
  secretValue,
  startVaultHarness,
  type VaultHarness,
} from '../vault/support/vault-harness';

/**
 * The app store's whole chain over RabbitMQ (the worker in the same process): the skill install
 * (the `skills` actor), the install (its APP_INSTALL execution read back through the executions'
 * routes), a device install and its removal, and the runtime grant (the vault actors, which ask
 * the app store whether the app may have the secret) cross the broker.
 */
describeWithService('amqp', 'app store over RabbitMQ', (amqpUrl) => {
  let h: VaultHarness;
  const prefix = uniqueAmqpPrefix();

  beforeAll(async () => {
    h = await startVaultHarness({ env: { AMQP_URL: amqpUrl, AMQP_PREFIX: prefix } });
  }, 60_000);
  afterAll(async () => {
    const kinds = h?.runtime.system.status().kinds ?? [];
    const nodeId = h?.runtime.config.NODE_ID;
    await h?.stop();
    h?.cleanup();
    await deleteClusterTopology(amqpUrl, prefix, { kinds, nodeIds: nodeId ? [nodeId] : [] });
  });

  it('publish, assign, install, ready, grant, consume once', async () => {
    const [dev, user] = [await h.account(), await h.account()];
    const published = await h.api.post('/api/apps', dev.auth, {
      slug: 'stripe-digest',
      name: 'Stripe Digest',
      category: 'Finance',
      description: 'A daily digest of payments.',
      manifest: {
        version: '1.0.0',
        entrypoint: 'index.html',
        requiredSkills: ['text-stats'],
        requiredSecrets: ['STRIPE_KEY'],
        distribution: { webUrl: 'https://apps.example.com/digest' },
      },
    });
    expect(published.status).toBe(201);

    const value = secretValue('STRIPE_KEY');
    const secret = await h.api.post('/api/vault', user.auth, { name: 'STRIPE_KEY', value });
    await h.api.post('/api/vault/assignments', user.auth, {
      secretId: secret.body.secret.id,
      subjectType: 'app',
      subjectId: 'stripe-digest',
    });
    expect((await h.api.post('/api/skills/install', user.auth, { slug: 'text-stats' })).status).toBe(201);
    const installed = await h.api.post('/api/apps/install', user.auth, {
      slug: 'stripe-digest',
      permissionsApproved: ['secrets:STRIPE_KEY'],
    });
    expect(installed.status).toBe(201);
    expect(installed.body.readiness.ready).toBe(true);
    // The install's execution is read back through the executions' routes.
    const execution = await h.api.get(`/api/executions/${installed.body.execution.id}`, user.auth);
    expect(execution.body.execution).toMatchObject({ type: 'APP_INSTALL', appSlug: 'stripe-digest' });
    const device = await h.api.post('/api/apps/stripe-digest/device-install', user.auth, { target: 'pwa' });
    expect(device.body).toMatchObject({ deviceInstalled: true, packageCachedForOfflineInstall: true });
    const removed = await h.api.del('/api/apps/stripe-digest/device-install', user.auth);
    expect(removed.body).toEqual(expect.objectContaining({ removed: true, ownershipPreserved: true }));

    const access = await h.api.post('/api/vault/access', user.auth, {
      action: 'runtime',
      workspaceId: user.workspaceId,
      secretName: 'STRIPE_KEY',
      subjectType: 'app',
      subjectId: 'stripe-digest',
      appSlug: 'stripe-digest',
    });
    expect(access.status).toBe(200);
    const credential = await mintCredential(h.api, user);
    const first = await h.api.consume(`Bearer ${credential}`, { grantId: access.body.grant.id });
    expect(first.body.secret).toEqual({ name: 'STRIPE_KEY', value });
    expect((await h.api.consume(`Bearer ${credential}`, { grantId: access.body.grant.id })).status).toBe(403);
  });
});
