import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { TokenService } from '../../../actors/identity/token-service';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { describeWithService } from '../../support/services';

/**
 * Two nodes of one deployment over RabbitMQ, each with its own memory cache: nothing is shared
 * but the broker, so only the `auth.tokenRevoked` broadcast can tell the second node of a
 * revocation made on the first (docs/authentication.md).
 */
describeWithService('amqp', 'token revocations between nodes over RabbitMQ', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const secret = randomBytes(24).toString('hex');
  const nodes: Array<{ runtime: Runtime; dir: string }> = [];

  const start = async (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-revocations-'));
    const runtime = await startRuntime(
      loadConfig({
        DATA_DIR: dir,
        PORT: '0',
        JWT_SECRET: secret,
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        NODE_ID: `${prefix}-${name}`,
      }),
      silentLogger,
    );
    nodes.push({ runtime, dir });
    return runtime;
  };

  afterAll(async () => {
    const kinds = nodes[0]?.runtime.system.status().kinds ?? [];
    for (const { runtime, dir } of nodes) {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await deleteClusterTopology(amqpUrl, prefix, {
      kinds,
      nodeIds: nodes.map((n) => n.runtime.config.NODE_ID),
    });
  });

  it('refuses at once on another node a token revoked through the first', async () => {
    const a = await start('a');
    const b = await start('b');
    expect(b.cache.kind).toBe('memory');
    // A token service of node A (its cache, its broadcasts), as the identity actors use it.
    const tokens = new TokenService(secret, a.cache, 60_000, { broadcasts: a.system });
    const issued = tokens.issue({ sub: 'agt_revoked_over_amqp', typ: 'agent' });
    const session = (runtime: Runtime) =>
      request(runtime.http!.url).get('/api/session').set('Authorization', `Bearer ${issued.token}`);
    expect((await session(b)).status).toBe(200);

    await tokens.revoke(issued.jti, issued.expiresAt);
    expect((await session(a)).status).toBe(401);
    // The broadcast is on its way when `revoke` resolves; it lands within the broker's delivery time.
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await session(b)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    expect((await session(b)).body).toMatchObject({ code: 'UNAUTHORIZED', error: 'Bearer token revoked' });
  });
});
