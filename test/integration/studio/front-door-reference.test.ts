import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { FRONT_DOOR_PATH, frontDoorRoute } from '../../../bench/streams/front-door.route';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { signupBearer } from '../../support/cluster-fixtures';
import { sseEvents } from '../../support/sse-events';

/**
 * Extra route modules of a runtime (`RuntimeOptions.routes`), with the one `bench:streams` serves:
 * the front door alone, its reference between the bare server and the service's intent stream.
 * The route must come in the service's way (metrics layer, bearer authentication, the account,
 * the body's schema) and store nothing, or the benchmark's reference measures something else.
 */

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
let dir: string;
let runtime: Runtime;
let url: string;
let token: string;

const post = (body: unknown, auth = true) =>
  fetch(`${url}${FRONT_DOOR_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      ...(auth ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

async function eventsOf(res: Response) {
  const events = [];
  for await (const e of sseEvents(res.body!)) events.push(e);
  return events;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-front-door-'));
  runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex'), METRICS_TOKEN }),
    silentLogger,
    { identity: { bcryptCost: 4 }, routes: [frontDoorRoute] },
  );
  url = runtime.http!.url;
  token = await signupBearer(url, `front-door-${randomBytes(6).toString('hex')}@example.com`);
});
afterAll(async () => {
  await runtime?.stop(200);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the front door reference of bench:streams (RuntimeOptions.routes)', () => {
  it('answers the three events of a stream answered at once, in order, and stores no execution', async () => {
    const res = await post({ message: 'status', sessionId: 'front-door' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // The service's fixed headers came with it: it went through the request context.
    expect(res.headers.get('x-request-id')).toMatch(/\S/);
    const events = await eventsOf(res);
    expect(events.map((e) => [e.id, e.event])).toEqual([
      ['1', 'execution'],
      ['2', 'reply'],
      ['3', 'done'],
    ]);
    const id = (events[0]!.data as { execution: { id: string } }).execution.id;
    expect(events[2]!.data).toEqual({ type: 'done', executionId: id, status: 'COMPLETED' });

    const list = await request(url).get('/api/executions').set('Authorization', `Bearer ${token}`);
    expect(list.status).toBe(200);
    expect(list.body.executions).toEqual([]);
  });

  it('refuses what the service refuses: no token 401, a bad body 400, a message not answered at once 400', async () => {
    const anonymous = await post({ message: 'status', sessionId: 'front-door' }, false);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });

    const bad = await post({ message: '', sessionId: 'front-door' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });

    const notAtOnce = await post({ message: 'run memory_get {}', sessionId: 'front-door' });
    expect(notAtOnce.status).toBe(400);
    expect(await notAtOnce.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/answered at once/),
    });
  });

  it('sits behind the metrics layer, which times it like the service routes', async () => {
    const text = (await request(url).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`)).text;
    const series = `http_requests_total{method="POST",route="${FRONT_DOOR_PATH}",status="200"}`;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    expect(line).toBeDefined();
    expect(Number(line!.slice(series.length + 1))).toBeGreaterThanOrEqual(1);
  });
});
