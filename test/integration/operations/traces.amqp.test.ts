import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../src/boot/runtime';
import { loadConfig } from '../../../src/config/load-config';
import { silentLogger } from '../../../src/logging/logger';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/store/embedded-mongo';
import { startTracing, type TracingHandle } from '../../../src/telemetry/otel-tracing';
import { telemetry } from '../../../src/telemetry/tracing';
import { deleteClusterTopology } from '../../support/amqp-admin';
import { uniqueAmqpPrefix } from '../../support/amqp-cluster';
import { waitFor } from '../../support/async';
import { describeWithService, serviceUrl } from '../../support/services';

/**
 * One trace across processes: a `/mcp` tool call enters a front door (ROLE=api), travels as an
 * envelope over RabbitMQ to a worker (ROLE=worker), runs in the agent actor's turn and the tool.
 * Both runtimes share this process's tracer (an in-memory exporter), but nothing carries the
 * context from one to the other except the envelope: the worker's turn starts in the AMQP
 * consumer's callback, so the parent it finds is the one the envelope brought. When Redis is
 * reachable the runtimes use it as their cache, and its commands are client spans of the trace.
 */
describeWithService('amqp', 'traces over RabbitMQ (api + worker)', (amqpUrl) => {
  const prefix = uniqueAmqpPrefix();
  const redisUrl = serviceUrl('redis');
  const suffix = randomBytes(4).toString('hex');
  const dirs: string[] = [];
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let mongo: EmbeddedMongo;
  let workerRuntime: Runtime;
  let api: Runtime;

  const tmp = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-trace-${name}-`));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    tracing = startTracing({
      serviceName: 'trace-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    mongo = await startEmbeddedMongo({ dir: tmp('mongo') });
    const shared = {
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      MONGODB_URL: `${mongo.url}trace_${suffix}`,
      JWT_SECRET: randomBytes(24).toString('hex'),
      VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: '0',
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      // The /register limit counts per address in the shared Redis, across suites and runs (and
      // bearer-tokens.redis.test.ts uses it up on purpose): not what this suite tests.
      RATE_LIMITS: 'off',
    };
    const worker = { METRICS_PORT: String(await freePort()) };
    const boot = (role: 'api' | 'worker') =>
      startRuntime(
        loadConfig({
          ...shared,
          ...(role === 'worker' ? worker : {}),
          ROLE: role,
          NODE_ID: `trace-${role}-${suffix}`,
          DATA_DIR: tmp(role),
        }),
        silentLogger,
        { identity: { bcryptCost: 4 } },
      );
    workerRuntime = await boot('worker');
    api = await boot('api');
  }, 90_000);

  afterAll(async () => {
    const kinds = workerRuntime?.system.status().kinds ?? [];
    for (const runtime of [api, workerRuntime]) await runtime?.stop();
    await tracing?.shutdown();
    await mongo?.close();
    await deleteClusterTopology(amqpUrl, prefix, {
      kinds,
      nodeIds: [`trace-api-${suffix}`, `trace-worker-${suffix}`],
    });
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;

  it('follows one /mcp call: api server span → send (broker) → worker turn → tool, with store calls', async () => {
    expect(telemetry.tracer).toBeDefined();
    const reg = await request(api.http!.url)
      .post('/register')
      .send({ name: `trace-agent ${suffix}` });
    expect(reg.status).toBe(201);
    const token = reg.body.token as string;
    exporter.reset();

    const res = await request(api.http!.url)
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'mem_set', arguments: { key: 'traced', value: 'yes' } },
      });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeFalsy();

    let spans: ReadableSpan[] = [];
    const find = (pred: (s: ReadableSpan) => boolean) => spans.find(pred);
    await waitFor(
      () => {
        spans = exporter.getFinishedSpans();
        return !!find((s) => s.name === 'tool platform.mem_set') && !!find((s) => s.name === 'POST /mcp');
      },
      'the spans of the call',
      15_000,
    );

    const server = find((s) => s.name === 'POST /mcp')!;
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.attributes).toMatchObject({
      'node.id': `trace-api-${suffix}`,
      'http.route': '/mcp',
      'http.response.status_code': 200,
    });
    const traceId = server.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(inTrace.map((s) => [idOf(s), s]));

    // tool ← worker turn ← send (the hop through the broker) ← the front door's request.
    const tool = inTrace.find((s) => s.name === 'tool platform.mem_set');
    expect(tool).toBeDefined();
    const turn = byId.get(parentOf(tool!)!)!;
    expect(turn).toMatchObject({ name: 'agent.invokeTool', kind: SpanKind.CONSUMER });
    expect(turn.attributes).toMatchObject({ 'node.id': `trace-worker-${suffix}`, 'actor.kind': 'agent' });
    const send = byId.get(parentOf(turn)!)!;
    expect(send).toMatchObject({ name: 'send agent.invokeTool', kind: SpanKind.PRODUCER });
    expect(send.attributes).toMatchObject({
      'node.id': `trace-api-${suffix}`,
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': 'agent',
    });
    // The send is a descendant of the front door's span (through the route's own spans, if any).
    let up: ReadableSpan | undefined = send;
    while (up && idOf(up) !== idOf(server)) up = byId.get(parentOf(up) ?? '');
    expect(up).toBe(server);

    // The worker's store calls are in the trace too, under its turn.
    const underTurn = (s: ReadableSpan): boolean => {
      for (let p = byId.get(parentOf(s) ?? ''); p; p = byId.get(parentOf(p) ?? ''))
        if (idOf(p) === idOf(turn)) return true;
      return false;
    };
    const store = inTrace.filter((s) => s.attributes['db.system.name'] === 'mongodb' && underTurn(s));
    expect(store.length).toBeGreaterThan(0);
    expect(store[0].kind).toBe(SpanKind.CLIENT);

    // With Redis as the cache, its commands are client spans in the same chain: each one's
    // ancestors lead up to the front door's span. Named by the command, which is all the
    // statement says (no keys or arguments).
    if (redisUrl) {
      const redis = inTrace.filter((s) => s.attributes['db.system.name'] === 'redis');
      expect(redis.length).toBeGreaterThan(0);
      for (const span of redis) {
        expect(span.kind).toBe(SpanKind.CLIENT);
        expect(span.attributes['db.query.text']).toBe(span.name);
        let at: ReadableSpan | undefined = span;
        while (at && idOf(at) !== idOf(server)) at = byId.get(parentOf(at) ?? '');
        expect(at).toBe(server);
      }
      // The tool's own write (mem_set on the worker) among them.
      expect(redis.some(underTurn)).toBe(true);
    }
  }, 60_000);

  it('the front door reports the queues of the kinds workers serve; the worker is scraped on METRICS_PORT', async () => {
    const front = await request(api.http!.url).get('/metrics');
    expect(front.status).toBe(200);
    // One worker consumes `agent`: the broker says so, seen from the api node.
    expect(front.text).toMatch(/^actor_queue_consumers\{kind="agent"\} 1$/m);
    expect(front.text).toMatch(/^actor_queue_messages\{kind="agent"\} \d+$/m);
    const worker = await request(workerRuntime.metricsUrl!).get('/metrics');
    expect(worker.status).toBe(200);
    // The tool ran on the worker: its turns and tool calls are counted there, not on the api.
    expect(worker.text).toMatch(/^actor_turns_total\{kind="agent",outcome="ok"\} [1-9]/m);
    expect(worker.text).toMatch(/^tool_calls_total\{tool="platform\.mem_set",status="ok"\} 1$/m);
    expect(front.text).not.toMatch(/^actor_turns_total\{kind="agent"/m);
  }, 30_000);
});
