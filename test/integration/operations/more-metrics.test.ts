import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';

/**
 * The series beyond requests and tool calls, on one process, and the scrape on METRICS_PORT (the
 * listener workers use): actor turns by kind and outcome, cache reads by result, SSE streams,
 * execution transitions. Queue depths and consumers need a broker: traces.amqp.test.ts.
 */
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
let dir: string;
let runtime: Runtime;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-more-metrics-'));
  runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', METRICS_TOKEN, METRICS_PORT: String(await freePort()) }),
    silentLogger,
    { identity: { bcryptCost: 4 } },
  );
});
afterAll(async () => {
  await runtime?.stop(200);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('more metrics', () => {
  it('METRICS_PORT serves only GET /metrics, with METRICS_TOKEN', async () => {
    const url = runtime.metricsUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(url).get('/metrics')).status).toBe(401);
    expect((await request(url).get('/api/ops/crew')).status).toBe(404);
    const res = await request(url).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE actor_turns_total counter');
  });

  it('counts turns by kind and outcome, and cache reads by result', async () => {
    const scrape = async () =>
      (await request(runtime.metricsUrl!).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`))
        .text;
    const before = await scrape();
    const reg = await request(runtime.http!.url)
      .post('/register')
      .send({ name: `metrics ${randomBytes(3).toString('hex')}` });
    expect(reg.status).toBe(201);
    const call = (tool: string, input: object) =>
      request(runtime.http!.url)
        .post('/mcp')
        .set('Authorization', `Bearer ${reg.body.token}`)
        .send({ tool, input });
    expect((await call('mem_set', { key: 'k', value: 1 })).status).toBe(200);
    expect((await call('mem_get', { key: 'k' })).body.result).toMatchObject({ found: true });
    expect((await call('mem_get', { key: 'absent' })).body.result).toMatchObject({ found: false });
    // A domain error in the turn: a tool the agent may not call is refused.
    expect((await call('no_such_tool', {})).status).toBeGreaterThanOrEqual(400);
    const after = await scrape();
    const delta = (series: string) => (valueOf(after, series) ?? 0) - (valueOf(before, series) ?? 0);
    expect(delta('actor_turns_total{kind="agent",outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(delta('cache_reads_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(delta('cache_reads_total{result="miss"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'sse_streams_open')).toBe(0);
    expect(after).toContain('# TYPE execution_transitions_total counter');
    // In-process transport: no shared queues, no queue series.
    expect(after).not.toContain('actor_queue_messages{');
  });
});
