import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';

/**
 * `GET /metrics` (Prometheus text, METRICS_TOKEN when set) and `GET /api/ops/metrics` (summary for
 * everyone, details for ops admins) on one process: requests are counted by route pattern (never
 * the URL), tool calls by registered tool and outcome, executions by status.
 */

const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`;
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
let dir: string;
let runtime: Runtime;
let url: string;

const scrape = async () => {
  const res = await request(url).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};
/** The value of one series (exact label set as printed), or undefined. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-metrics-'));
  runtime = await startRuntime(
    loadConfig({ DATA_DIR: dir, PORT: '0', ADMIN_TOKEN, METRICS_TOKEN }),
    silentLogger,
  );
  url = runtime.http!.url;
});
afterAll(async () => {
  await runtime?.stop(200);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('GET /metrics', () => {
  it('needs METRICS_TOKEN when it is set', async () => {
    expect((await request(url).get('/metrics')).status).toBe(401);
    expect((await request(url).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`)).status).toBe(
      401,
    );
  });

  it('counts requests by route pattern and status, tool calls by tool and outcome; ids never become labels', async () => {
    const id = `exec_${randomBytes(6).toString('hex')}`;
    await request(url).get(`/api/executions/${id}`); // 401: no credentials
    await request(url).get(`/no/such/${id}`); // 404: no route
    const reg = await request(url)
      .post('/register')
      .send({ name: `Metrics bot ${randomBytes(3).toString('hex')}` });
    expect(reg.status).toBe(201);
    const call = await request(url)
      .post('/mcp')
      .set('Authorization', `Bearer ${reg.body.token}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'mem_get', arguments: { key: 'x' } },
      });
    expect(call.status).toBe(200);
    expect(call.body.result.isError).toBe(false);

    const text = await scrape();
    expect(text).not.toContain(id);
    expect(valueOf(text, 'http_requests_total{method="GET",route="/api/executions/:id",status="401"}')).toBe(
      1,
    );
    expect(valueOf(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(valueOf(text, 'http_requests_total{method="POST",route="/mcp",status="200"}')).toBe(1);
    expect(
      valueOf(text, 'http_request_duration_seconds_count{method="POST",route="/mcp",status="200"}'),
    ).toBe(1);
    expect(text).toMatch(/^tool_calls_total\{tool="platform\.mem_get",status="ok"\} 1$/m);
    expect(text).toMatch(
      /^tool_call_duration_seconds_bucket\{tool="platform\.mem_get",status="ok",le="\+Inf"\} 1$/m,
    );
    // Gauges read at scrape time, and the default process metrics.
    for (const status of ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED']) {
      expect(text).toMatch(new RegExp(`^executions\\{status="${status}"\\} \\d+$`, 'm'));
    }
    expect(valueOf(text, 'actors_active')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^sandbox_queue_depth 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});

describe('GET /api/ops/metrics', () => {
  it('gives everyone the summary and ops admins the details', async () => {
    const pub = await request(url).get('/api/ops/metrics');
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({
      metrics: null,
      requiresAuthForDetails: true,
      settings: { metricsTokenRequired: true },
    });
    const { summary } = pub.body;
    expect(summary.status).toBe('ok');
    expect(summary.requests.lastMinute).toBeGreaterThanOrEqual(1);
    expect(summary.requests.lastHour).toBeGreaterThanOrEqual(summary.requests.lastMinute);
    expect(summary.errorRate.requests).toBeGreaterThanOrEqual(0);
    expect(Object.keys(summary.executions)).toEqual(expect.arrayContaining(['QUEUED', 'COMPLETED']));

    const admin = await request(url).get('/api/ops/metrics').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(admin.body.requiresAuthForDetails).toBe(false);
    expect(admin.body.metrics.node.nodeId).toBe(runtime.system.nodeId);
    expect(admin.body.metrics.routes['GET /api/ops/metrics']).toMatchObject({ count: 1 });
    expect(admin.body.metrics.routes['GET /api/ops/metrics'].p50Ms).toBeGreaterThan(0);
    expect(admin.body.metrics.sandbox).toEqual({ threads: 0, inFlight: 0, queued: 0 });
  });
});

describe('METRICS=off', () => {
  it('measures nothing: /metrics is 404 and the summary counts no request', async () => {
    const offDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-metrics-off-'));
    const off = await startRuntime(loadConfig({ DATA_DIR: offDir, PORT: '0', METRICS: 'off' }), silentLogger);
    try {
      const offUrl = off.http!.url;
      expect((await request(offUrl).get('/metrics')).status).toBe(404);
      await request(offUrl).get('/health');
      const res = await request(offUrl).get('/api/ops/metrics');
      expect(res.status).toBe(200);
      expect(res.body.settings).toMatchObject({ enabled: false, prometheus: null });
      expect(res.body.summary.requests).toEqual({ lastMinute: 0, lastHour: 0 });
    } finally {
      await off.stop(200);
      fs.rmSync(offDir, { recursive: true, force: true });
    }
  });
});
