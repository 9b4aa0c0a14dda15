import express from 'express';
import request from 'supertest';
import { loadConfig } from '../../../src/config/load-config';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { browserOriginGuard, isLoopbackName } from '../../../src/http/auth/dns-rebinding';
import { errorMiddleware } from '../../../src/http/error.middleware';
import { memoryLogger, testDeps } from './support/test-app';

describe('browserOriginGuard', () => {
  function guarded(env: Record<string, string>) {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.requestId = 'r';
      res.locals.log = memoryLogger().logger;
      next();
    });
    app.post('/mcp', browserOriginGuard(loadConfig(env)), (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorMiddleware());
    return app;
  }

  it('on a server bound to every interface, checks Origin only: a Host-matching Origin is not enough', async () => {
    const app = guarded({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://agents.example.com' });
    const rebound = await request(app)
      .post('/mcp')
      .set('Host', 'evil.example')
      .set('Origin', 'http://evil.example');
    expect(rebound.status).toBe(403);
    expect((await request(app).post('/mcp').set('Host', 'evil.example')).status).toBe(200);
    expect((await request(app).post('/mcp').set('Origin', 'https://agents.example.com')).status).toBe(200);
  });

  it('by default (127.0.0.1:3000) answers its own origin', async () => {
    const app = guarded({});
    expect((await request(app).post('/mcp').set('Origin', 'http://127.0.0.1:3000')).status).toBe(200);
    expect((await request(app).post('/mcp').set('Origin', 'http://127.0.0.1:3001')).status).toBe(403);
  });

  it.each([
    ['localhost', true],
    ['app.localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['[::1]', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
    ['localhost.evil.example', false],
    ['evil.example', false],
  ])('isLoopbackName(%s) is %s', (name, expected) => {
    expect(isLoopbackName(name)).toBe(expected);
  });
});

describe('TRUST_PROXY', () => {
  const ipRoute: RouteModule = (router) => {
    router.get('/t/ip', (req, res) => {
      res.json({ ip: req.ip });
    });
  };
  const ipOf = async (env: Record<string, string>) => {
    const t = testDeps({ routes: [ipRoute] }, env);
    const res = await request(buildApp(t.deps)).get('/t/ip').set('X-Forwarded-For', '203.0.113.9');
    return res.body.ip as string;
  };

  it('unset: X-Forwarded-For does not count (a client cannot choose its address)', async () => {
    expect(await ipOf({})).toMatch(/127\.0\.0\.1$/);
  });

  it('a hop count or the proxy addresses: the forwarded address counts', async () => {
    expect(await ipOf({ TRUST_PROXY: '1' })).toBe('203.0.113.9');
    expect(await ipOf({ TRUST_PROXY: 'loopback' })).toBe('203.0.113.9');
    expect(await ipOf({ TRUST_PROXY: '10.0.0.0/8' })).toMatch(/127\.0\.0\.1$/);
  });
});
