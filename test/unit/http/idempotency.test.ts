import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler, Router } from 'express';
import request from 'supertest';
import { errors } from '../../../schemas/errors';
import { buildApp } from '../../../src/http/app';
import type { RouteModule } from '../../../src/http/app.types';
import { idempotencyByRoute, secretAnswer } from '../../../src/http/idempotency.middleware';
import { CacheIdempotencyStore } from '../../../src/http/idempotency/cache-idempotency.store';
import { IdempotencyKeeper } from '../../../src/http/idempotency/idempotency-keeper';
import { MemoryCache } from '../../../src/store/cache';
import { deferred, eventually, type Deferred } from '../../support/async';
import { testDeps } from './support/test-app';

/** Authentication stand-in: the caller is the account named by `X-Test-Caller`. */
const requireAuth: RequestHandler = (req, res, next) => {
  const caller = req.headers['x-test-caller'];
  if (typeof caller !== 'string') return next(errors.unauthorized());
  res.locals.auth = { subjectType: 'account', accountId: caller, via: 'bearer' };
  next();
};

/** Routes that count how often they really ran. */
function routes(state: { runs: number; gate?: Deferred<void>; failNext?: number }): RouteModule {
  return (router: Router, deps) => {
    router.post('/t/counter', deps.requireAuth, async (req, res) => {
      state.runs++;
      if (state.gate) await state.gate.promise;
      if (state.failNext) {
        state.failNext--;
        throw errors.unavailable('the store is away');
      }
      res.status(201).json({ run: state.runs, got: req.body, caller: res.locals.auth?.accountId });
    });
    router.delete('/t/counter', deps.requireAuth, (req, res) => {
      state.runs++;
      res.json({ run: state.runs, target: req.query.name });
    });
    router.get('/t/counter', deps.requireAuth, (_req, res) => {
      state.runs++;
      res.json({ run: state.runs });
    });
    router.post('/t/invalid', deps.requireAuth, () => {
      state.runs++;
      throw errors.validation('name: Required');
    });
    router.post('/t/token', secretAnswer, deps.requireAuth, (req, res) => {
      state.runs++;
      if ((req.body as { bad?: boolean }).bad) throw errors.validation('bad: not allowed');
      res.status(201).json({ token: `tok-${state.runs}` });
    });
    router.post('/t/stream', deps.requireAuth, (_req, res) => {
      state.runs++;
      res.status(200).write('data: 1\n\n');
      res.end('data: 2\n\n');
    });
    router.post('/t/own-keys', idempotencyByRoute, deps.requireAuth, (_req, res) => {
      state.runs++;
      res.json({ run: state.runs });
    });
  };
}

function harness(options: { waitMs?: number } = {}) {
  const state: { runs: number; gate?: Deferred<void>; failNext?: number } = { runs: 0 };
  const cache = new MemoryCache();
  const keeper = new IdempotencyKeeper({ store: new CacheIdempotencyStore(cache), waitMs: options.waitMs });
  const t = testDeps({ requireAuth, idempotency: keeper, routes: [routes(state)] });
  const app = buildApp(t.deps);
  const post = (path: string, key: string | undefined, body: unknown = {}, caller = 'acc-a') => {
    const r = request(app).post(path).set('X-Test-Caller', caller);
    if (key !== undefined) r.set('Idempotency-Key', key);
    return r.send(body as object);
  };
  return { state, app, post, cache, close: () => cache.close() };
}

describe('Idempotency-Key on the mutating routes', () => {
  it('runs a keyed request once: a retry gets the first answer, marked as replayed', async () => {
    const h = harness();
    const first = await h.post('/t/counter', 'key-0001-aaaa', { n: 1 });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await h.post('/t/counter', 'key-0001-aaaa', { n: 1 });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toMatch(/application\/json/);
    expect(retry.body).toEqual(first.body);
    expect(h.state.runs).toBe(1);
    // Without a key, or with another key, the request runs as usual.
    await h.post('/t/counter', undefined, { n: 1 });
    await h.post('/t/counter', 'key-0002-bbbb', { n: 1 });
    expect(h.state.runs).toBe(3);
    // Object keys in another order are the same body.
    const reordered = await h.post('/t/counter', 'key-0003-cccc', { a: 1, b: { c: 2, d: 3 } });
    const again = await h.post('/t/counter', 'key-0003-cccc', { b: { d: 3, c: 2 }, a: 1 });
    expect(again.body).toEqual(reordered.body);
    expect(h.state.runs).toBe(4);
    await h.close();
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key on another body, path or method', async () => {
    const h = harness();
    await h.post('/t/counter', 'key-reused-1', { n: 1 });
    const otherBody = await h.post('/t/counter', 'key-reused-1', { n: 2 });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body).toEqual({
      error: expect.stringContaining('already used for another request'),
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const otherPath = await h.post('/t/invalid', 'key-reused-1', { n: 1 });
    expect(otherPath.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherMethod = await request(h.app)
      .delete('/t/counter?name=x')
      .set('X-Test-Caller', 'acc-a')
      .set('Idempotency-Key', 'key-reused-1');
    expect(otherMethod.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(h.state.runs).toBe(1);
    await h.close();
  });

  it('keeps each caller’s keys to itself: the same key and body run once per tenant', async () => {
    const h = harness();
    const a = await h.post('/t/counter', 'shared-key-1', { n: 1 }, 'acc-a');
    const b = await h.post('/t/counter', 'shared-key-1', { n: 1 }, 'acc-b');
    expect(a.body).toMatchObject({ run: 1, caller: 'acc-a' });
    expect(b.body).toMatchObject({ run: 2, caller: 'acc-b' });
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    // And another tenant's body under that key is no conflict either.
    const c = await h.post('/t/counter', 'shared-key-1', { n: 99 }, 'acc-c');
    expect(c.status).toBe(201);
    expect((await h.post('/t/counter', 'shared-key-1', { n: 1 }, 'acc-b')).body).toEqual(b.body);
    expect(h.state.runs).toBe(3);
    await h.close();
  });

  it('validates the key: 8 to 255 letters, digits or -_.:~+/=, one per request (400)', async () => {
    const h = harness();
    for (const bad of [
      'short',
      'x'.repeat(256),
      'has space in it',
      'ünïcödé-key',
      'key-one-1, key-two-2',
      '""',
    ]) {
      const res = await h.post('/t/counter', bad, {});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: expect.stringMatching(/^Invalid Idempotency-Key: /),
        details: [{ path: 'Idempotency-Key', message: expect.any(String) }],
      });
    }
    for (const good of ['0f8fc2c4-8f0d-4b6e-9a55-8e2d3c1b7a90', '"quoted-key-1"', 'job:42/step=3~x+y_z.w']) {
      expect((await h.post('/t/counter', good, {})).status).toBe(201);
    }
    expect(h.state.runs).toBe(3);
    await h.close();
  });

  it('ignores keys on reads and on routes that handle them themselves', async () => {
    const h = harness();
    for (let i = 0; i < 2; i++) {
      await request(h.app)
        .get('/t/counter')
        .set('X-Test-Caller', 'acc-a')
        .set('Idempotency-Key', 'read-key-1');
      await h.post('/t/own-keys', 'own-key-0001', {});
    }
    expect(h.state.runs).toBe(4);
    await h.close();
  });

  it('a retry arriving while the first still runs waits for it and gets its answer', async () => {
    const h = harness();
    h.state.gate = deferred();
    const first = h.post('/t/counter', 'concurrent-1', { n: 1 }).then((r) => r);
    await eventually(() => h.state.runs === 1);
    const second = h.post('/t/counter', 'concurrent-1', { n: 1 }).then((r) => r);
    const third = h.post('/t/counter', 'concurrent-1', { n: 1 }).then((r) => r);
    h.state.gate.resolve();
    const answers = await Promise.all([first, second, third]);
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(h.state.runs).toBe(1);
    await h.close();
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE when the first outlives the wait, then replays once it is done', async () => {
    const h = harness({ waitMs: 50 });
    h.state.gate = deferred();
    const first = h.post('/t/counter', 'slow-key-0001', {}).then((r) => r);
    await eventually(() => h.state.runs === 1);
    const early = await h.post('/t/counter', 'slow-key-0001', {});
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      error: expect.stringContaining('still running'),
      code: 'IDEMPOTENCY_KEY_IN_USE',
      retryAfter: 1,
    });
    h.state.gate.resolve();
    const done = await first;
    const late = await h.post('/t/counter', 'slow-key-0001', {});
    expect(late.body).toEqual(done.body);
    expect(h.state.runs).toBe(1);
    await h.close();
  });

  it('keeps the answer of a request whose client left before it was sent', async () => {
    const h = harness();
    h.state.gate = deferred();
    const server = http.createServer(h.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const body = JSON.stringify({ n: 7 });
    const lost = http.request({
      port,
      method: 'POST',
      path: '/t/counter',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'Idempotency-Key': 'lost-answer-1',
        'X-Test-Caller': 'acc-a',
      },
    });
    lost.on('error', () => undefined);
    lost.end(body);
    await eventually(() => h.state.runs === 1);
    // The connection drops while the work runs; the work then completes.
    lost.destroy();
    h.state.gate.resolve();
    const retry = await eventually(async () => {
      const res = await request(server)
        .post('/t/counter')
        .set('X-Test-Caller', 'acc-a')
        .set('Idempotency-Key', 'lost-answer-1')
        .send({ n: 7 });
      return res.status === 201 ? res : undefined;
    });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual({ run: 1, got: { n: 7 }, caller: 'acc-a' });
    expect(h.state.runs).toBe(1);
    await new Promise((r) => server.close(r));
    await h.close();
  });

  it('does not keep a 503: it says the work may have run, and a retry runs again', async () => {
    const h = harness();
    h.state.failNext = 1;
    const failed = await h.post('/t/counter', 'flaky-key-01', { n: 1 });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 'UNAVAILABLE', mayHaveRun: true });
    const retry = await h.post('/t/counter', 'flaky-key-01', { n: 1 });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(h.state.runs).toBe(2);
    await h.close();
  });

  it('keeps a 4xx answer: a retry gets the same error without running', async () => {
    const h = harness();
    const first = await h.post('/t/invalid', 'invalid-key-1', {});
    const retry = await h.post('/t/invalid', 'invalid-key-1', {});
    expect(first.status).toBe(400);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(h.state.runs).toBe(1);
    await h.close();
  });

  it('never keeps a one-time secret or a stream: a retry learns that the request ran (409)', async () => {
    const h = harness();
    const first = await h.post('/t/token', 'token-key-01', {});
    expect(first.body).toEqual({ token: 'tok-1' });
    const retry = await h.post('/t/token', 'token-key-01', {});
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual({
      error: expect.stringContaining('already ran (answered 201)'),
      code: 'IDEMPOTENCY_OUTCOME_NOT_KEPT',
      status: 201,
      reason: 'secret',
    });
    for (const key of await h.cache.list('')) expect(await h.cache.get(key)).not.toContain('tok-1');
    // Its errors carry no secret: they are kept.
    await h.post('/t/token', 'token-key-02', { bad: true });
    expect((await h.post('/t/token', 'token-key-02', { bad: true })).headers['idempotent-replayed']).toBe(
      'true',
    );

    await h.post('/t/stream', 'stream-key-1', {});
    const streamRetry = await h.post('/t/stream', 'stream-key-1', {});
    expect(streamRetry.body).toMatchObject({ code: 'IDEMPOTENCY_OUTCOME_NOT_KEPT', reason: 'stream' });
    expect(h.state.runs).toBe(3);
    await h.close();
  });
});

describe('mayHaveRun on 503/504', () => {
  it('is true on a mutation unless the error says otherwise, and absent on reads', async () => {
    const t = testDeps({
      routes: [
        (router) => {
          router.post('/t/fail/:how', (req) => {
            if (req.params.how === 'unknown') throw errors.unavailable('down');
            if (req.params.how === 'deadline') throw errors.deadline();
            throw errors.unavailable('never sent', { mayHaveRun: false });
          });
          router.get('/t/fail', () => {
            throw errors.unavailable('down');
          });
        },
      ],
    });
    const app = buildApp(t.deps);
    expect((await request(app).post('/t/fail/unknown')).body).toMatchObject({
      code: 'UNAVAILABLE',
      mayHaveRun: true,
    });
    expect((await request(app).post('/t/fail/deadline')).body).toMatchObject({
      code: 'DEADLINE_EXCEEDED',
      mayHaveRun: true,
    });
    expect((await request(app).post('/t/fail/known')).body).toMatchObject({ mayHaveRun: false });
    expect((await request(app).get('/t/fail')).body).not.toHaveProperty('mayHaveRun');
  });
});
