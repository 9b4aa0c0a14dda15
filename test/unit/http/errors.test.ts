import type { Router } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { AppError, errors } from '../../../schemas/errors';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { parseBody, parseQuery } from '../../../src/http/validation';
import { testDeps } from './support/test-app';

const ItemSchema = z.object({
  name: z.string().min(1),
  count: z.number().int(),
  tags: z.array(z.string()).optional(),
});

const testRoutes: RouteModule = (router: Router) => {
  router.post('/t/items', (req, res) => {
    res.status(201).json({ item: parseBody(ItemSchema, req) });
  });
  router.get('/t/items', (req, res) => {
    res.json(parseQuery(z.object({ limit: z.coerce.number().int().max(50) }), req));
  });
  router.get('/t/secret-sync', () => {
    throw new Error('secret stuff: password=hunter2');
  });
  router.get('/t/secret-async', async () => {
    await new Promise((r) => setImmediate(r));
    throw new Error('secret stuff, async');
  });
  router.get('/t/reject-non-error', () => Promise.reject('secret string'));
  router.get('/t/app-error/:kind', async (req) => {
    const kinds: Record<string, AppError> = {
      notFound: errors.notFound('Execution not found', { executionId: 'exe_1' }),
      conflict: errors.conflict('Illegal move', { from: 'COMPLETED', to: 'PAUSED' }),
      rateLimited: errors.rateLimited('Slow down', 2.3),
      unavailable: errors.unavailable('Broker down'),
      unavailableRetry: errors.unavailable('Broker down', { retryAfter: 7 }),
      deadline: errors.deadline(),
      internal: errors.internal('Store write failed'),
      // Shape of an error rebuilt from a reply envelope: not an instance, only the name and code.
      wire: Object.assign(Object.create(null), {
        name: 'AppError',
        code: 'PERMISSION_DENIED',
        message: 'No',
        details: { scope: 'x' },
      }),
    };
    throw kinds[String(req.params.kind)];
  });
  router.get('/t/half-sent', (_req, res) => {
    res.status(200).write('{"partial":');
    throw new Error('boom after headers');
  });
  router.get('/t/declines', (_req, _res, next) => next());
};

function app(env: Record<string, string> = {}) {
  const t = testDeps({}, env);
  t.deps.routes = [testRoutes];
  return { ...t, app: buildApp(t.deps) };
}

describe('body parsing', () => {
  it('answers 400 VALIDATION_ERROR to malformed JSON', async () => {
    const res = await request(app().app)
      .post('/t/items')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body', code: 'VALIDATION_ERROR' });
  });

  it('answers 413 PAYLOAD_TOO_LARGE past BODY_LIMIT_BYTES', async () => {
    const res = await request(app().app)
      .post('/t/items')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(5000), count: 1 }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String) });
    expect(res.body.limitBytes).toBe(2048);
  });

  it('refuses a body of another content type with a message naming the expected type', async () => {
    const res = await request(app().app).post('/t/items').set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Request body must be JSON (Content-Type: application/json)',
      code: 'VALIDATION_ERROR',
    });
  });

  it('accepts application/*+json', async () => {
    const res = await request(app().app)
      .post('/t/items')
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ name: 'a', count: 2 }));
    expect(res.status).toBe(201);
  });
});

describe('validation helpers', () => {
  it('answers 400 with a summary naming the fields and details [{path, message}]', async () => {
    const res = await request(app().app)
      .post('/t/items')
      .send({ name: '', count: 'two', tags: ['a', 3] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.error).toMatch(/^Invalid request body: /);
    for (const field of ['name', 'count', 'tags[1]']) expect(res.body.error).toContain(field);
    expect(res.body.details).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'count', message: expect.any(String) },
      { path: 'tags[1]', message: expect.any(String) },
    ]);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'error']);
  });

  it('validates an absent body as {}', async () => {
    const res = await request(app().app).post('/t/items');
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['name', 'count']);
  });

  it('parses the query', async () => {
    expect((await request(app().app).get('/t/items?limit=20')).body).toEqual({ limit: 20 });
    const bad = await request(app().app).get('/t/items?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Invalid query: limit: /);
    expect(bad.body.details[0].path).toBe('limit');
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 JSON to an unknown path', async () => {
    const res = await request(app().app).get('/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'No route for GET /nope/nothing', code: 'NOT_FOUND' });
  });

  it('answers 405 with Allow to a known path with another method', async () => {
    const res = await request(app().app).delete('/t/items');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      error: expect.any(String),
      allow: ['GET', 'POST'],
    });
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const res = await request(app().app).options('/t/items');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, OPTIONS, POST');
  });

  it('answers 404 when the only matching handler declines', async () => {
    expect((await request(app().app).get('/t/declines')).status).toBe(404);
  });

  it('answers 405 in routers mounted by a module', async () => {
    const t = testDeps();
    t.deps.routes = [
      (router) => {
        const { Router } = jest.requireActual<typeof import('express')>('express');
        const sub = Router();
        sub.put('/thing/:id', (_req, res) => {
          res.json({});
        });
        router.use('/sub', sub);
      },
    ];
    const res = await request(buildApp(t.deps)).get('/sub/thing/1');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('PUT');
  });
});

describe('error middleware', () => {
  it.each(['/t/secret-sync', '/t/secret-async', '/t/reject-non-error'])(
    'never leaks an unknown error (%s), logs it with its stack',
    async (path) => {
      const { app: a, lines } = app();
      const res = await request(a).get(path);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Internal error',
        code: 'INTERNAL_ERROR',
        requestId: res.headers['x-request-id'],
      });
      expect(res.text).not.toMatch(/secret|stack|at .*\.ts/i);
      const logged = lines.find((l) => l.msg === 'request failed');
      expect(logged).toMatchObject({ level: 50, reqId: res.headers['x-request-id'] });
      if (path !== '/t/reject-non-error')
        expect((logged?.err as { stack: string }).stack).toMatch(/secret stuff/);
    },
  );

  it.each([
    ['notFound', 404, { error: 'Execution not found', code: 'NOT_FOUND', executionId: 'exe_1' }],
    ['conflict', 409, { error: 'Illegal move', code: 'CONFLICT', from: 'COMPLETED', to: 'PAUSED' }],
    ['wire', 403, { error: 'No', code: 'PERMISSION_DENIED', scope: 'x' }],
  ])('maps AppError %s to %i and toBody()', async (kind, status, body) => {
    const res = await request(app().app).get(`/t/app-error/${kind}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('adds Retry-After to RATE_LIMITED from details.retryAfter (whole seconds, rounded up)', async () => {
    const res = await request(app().app).get('/t/app-error/rateLimited');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.body).toEqual({ error: 'Slow down', code: 'RATE_LIMITED', retryAfter: 2.3 });
  });

  it('answers UNAVAILABLE with 503 and Retry-After: 1 (or its retryAfter)', async () => {
    const res = await request(app().app).get('/t/app-error/unavailable');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({
      code: 'UNAVAILABLE',
      error: 'Broker down',
      requestId: expect.any(String),
    });
    expect((await request(app().app).get('/t/app-error/unavailableRetry')).headers['retry-after']).toBe('7');
  });

  it('answers DEADLINE_EXCEEDED 504 and an explicit INTERNAL_ERROR 500 with only the request id', async () => {
    expect((await request(app().app).get('/t/app-error/deadline')).status).toBe(504);
    const res = await request(app().app).get('/t/app-error/internal');
    expect(res.status).toBe(500);
    // The defect's own message and details stay in the log.
    expect(res.body).toEqual({
      error: 'Internal error',
      code: 'INTERNAL_ERROR',
      requestId: res.headers['x-request-id'],
    });
  });

  it('cuts the connection when the failure comes after the headers (no fake complete body)', async () => {
    await expect(request(app().app).get('/t/half-sent')).rejects.toThrow();
  });
});
