import { healthRoute } from '../../../actors/ops/health.route';
import request from 'supertest';
import { healthActor, type HealthActorOptions } from '../../../actors/ops/health.actor';
import { HealthResponseSchema } from '../../../schemas/http/health';
import { errors } from '../../../schemas/errors';
import { loadConfig } from '../../../src/config/load-config';
import { buildApp } from '../../../src/http/app';
import { createActorSystem, type ActorSystem } from '../../../src/kernel';
import { silentLogger } from '../../../src/logging/logger';
import { InProcessBus, InProcessTransport } from '../../../src/transport/in-process.transport';

/** GET /health end to end: route → in-process kernel → ops:health actor → probes. */
describe('GET /health through the in-process kernel', () => {
  let system: ActorSystem;
  let probes: HealthActorOptions['probes'];

  beforeEach(async () => {
    system = createActorSystem({
      transport: new InProcessTransport('node-a', new InProcessBus()),
      logger: silentLogger,
    });
    probes = {
      transport: () => system.status().transport,
      documents: () => ({ state: 'up', embedded: true }),
      cache: () => ({ state: 'up', embedded: true }),
    };
    // The actor reads `probes` on every check: tests swap a probe by assigning it.
    await system.register(healthActor({ probes, probeTimeoutMs: 200, reuseMs: 0 }));
    await system.start();
  });

  afterEach(async () => {
    await system.stop(1000);
  });

  const ADMIN_TOKEN = 'ops-admin-token-of-this-test-0123456789';
  const app = () =>
    buildApp({
      config: loadConfig({ ADMIN_TOKEN }),
      logger: silentLogger,
      system,
      toolCount: () => 3,
      routes: [healthRoute],
    });
  /** The dependency details are for the ops admin only (actors/ops/health-view.ts). */
  const asAdmin = () => request(app()).get('/health').set('Authorization', `Bearer ${ADMIN_TOKEN}`);

  it('answers ok when every dependency is up', async () => {
    const res = await asAdmin();
    expect(res.status).toBe(200);
    expect(HealthResponseSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      status: 'ok',
      version: '6.6.7',
      tools: 3,
      dependencies: { transport: { state: 'up' }, documents: { state: 'up' }, cache: { state: 'up' } },
    });
  });

  it('answers degraded (200) when a probe fails or hangs, without leaking the raw error', async () => {
    probes.cache = () => {
      throw new Error('redis://user:secret@cache refused');
    };
    probes.documents = () => new Promise(() => undefined);
    const res = await asAdmin();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.dependencies.cache).toEqual({ state: 'down', detail: 'check failed' });
    expect(res.body.dependencies.documents).toEqual({ state: 'down', detail: 'no answer within 200 ms' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('shows an AppError message from a probe', async () => {
    probes.cache = () => {
      throw errors.unavailable('cache unreachable');
    };
    const res = await asAdmin();
    expect(res.body.dependencies.cache).toEqual({ state: 'down', detail: 'cache unreachable' });
  });

  it('shows anonymous callers and other credentials only status, version, timestamp and tools', async () => {
    probes.cache = () => ({ state: 'up', embedded: false, detail: 'redis://cache.internal:6379, 1234 keys' });
    for (const auth of [undefined, 'Bearer wrong-token', `Basic ${ADMIN_TOKEN}`, `Bearer ${ADMIN_TOKEN}x`]) {
      const req = request(app()).get('/health');
      const res = auth === undefined ? await req : await req.set('Authorization', auth);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['status', 'timestamp', 'tools', 'version']);
      expect(res.body).toMatchObject({ status: 'ok', version: '6.6.7', tools: 3 });
    }
    const admin = await asAdmin();
    expect(admin.body.dependencies.cache).toMatchObject({ detail: 'redis://cache.internal:6379, 1234 keys' });
  });

  it('answers 503 unavailable once the actor system is stopped', async () => {
    await system.stop(1000);
    const res = await request(app()).get('/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('unavailable');
  });

  it('shares one check between concurrent requests and reuses it briefly, then checks again', async () => {
    await system.stop(1000);
    system = createActorSystem({
      transport: new InProcessTransport('node-b', new InProcessBus()),
      logger: silentLogger,
    });
    let calls = 0;
    const counted: HealthActorOptions['probes'] = {
      transport: () => system.status().transport,
      documents: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 20));
        return { state: 'up' };
      },
      cache: () => ({ state: 'up' }),
    };
    await system.register(healthActor({ probes: counted, reuseMs: 300 }));
    await system.start();
    const results = await Promise.all(Array.from({ length: 5 }, () => request(app()).get('/health')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await request(app()).get('/health')).status).toBe(200);
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    await request(app()).get('/health');
    expect(calls).toBe(2);
  });
});
