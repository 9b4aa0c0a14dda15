import {
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer as OtelTracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { Redis } from 'ioredis';
import { version as ioredisVersion } from 'ioredis/package.json';
import {
  failureCode,
  telemetry,
  type TraceSpan,
  type TraceSpanKind,
  type TraceSpanOptions,
  type Tracer,
} from './tracing';

/**
 * OpenTelemetry behind the `Tracer` port. Loaded only when tracing is on (src/main.ts imports it
 * dynamically when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; tests hand their own span processor). The
 * spans are the service's own (front door, envelope send, actor turn, tool, sandbox, outbound HTTP,
 * document store commands) plus one instrumentation, ioredis's (Redis commands, below): the only
 * module patched, and only while tracing is on.
 */

export interface TracingOptions {
  /** `service.name` of every span (OTEL_SERVICE_NAME). */
  readonly serviceName: string;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): spans go to `<endpoint>/v1/traces`. */
  readonly endpoint?: string;
  /** In place of the OTLP exporter (tests: an in-memory exporter behind a simple processor). */
  readonly spanProcessors?: SpanProcessor[];
}

export interface TracingHandle {
  /** Exports what is buffered and stops tracing (`telemetry.tracer` is undefined again). */
  shutdown(): Promise<void>;
}

const KINDS: Record<TraceSpanKind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
};

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context of a W3C `traceparent`, or undefined when it is not one. */
export function contextOf(traceparent: string | undefined): Context | undefined {
  const m = traceparent !== undefined ? TRACEPARENT.exec(traceparent) : null;
  if (!m) return undefined;
  const spanContext = { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16) & 1, isRemote: true };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : undefined;
}

function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-0${(c.traceFlags & 1).toString(16)}`;
}

class SpanHandle implements TraceSpan {
  private ended = false;
  constructor(readonly span: Span) {}

  get traceparent(): string {
    return traceparentOf(this.span);
  }

  setAttribute(key: string, value: string | number | boolean): void {
    this.span.setAttribute(key, value);
  }

  rename(name: string): void {
    this.span.updateName(name);
  }

  fail(error: unknown): void {
    const code = failureCode(error);
    this.span.setAttribute('error.type', code);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }
}

class OpenTelemetryTracer implements Tracer {
  constructor(private readonly tracer: OtelTracer) {}

  startSpan(name: string, options: TraceSpanOptions): TraceSpan {
    return new SpanHandle(this.open(name, options).span);
  }

  inSpan<T>(name: string, options: TraceSpanOptions, fn: (span: TraceSpan) => T): T {
    const { span, ctx } = this.open(name, options);
    const handle = new SpanHandle(span);
    let result: T;
    try {
      result = context.with(ctx, fn, undefined, handle);
    } catch (error) {
      handle.fail(error);
      handle.end();
      throw error;
    }
    if (isThenable(result)) {
      result.then(
        () => handle.end(),
        (error: unknown) => {
          handle.fail(error);
          handle.end();
        },
      );
    } else {
      handle.end();
    }
    return result;
  }

  private open(name: string, options: TraceSpanOptions): { span: Span; ctx: Context } {
    const parent = contextOf(options.parent) ?? context.active();
    const attributes: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(options.attributes ?? {})) if (v !== undefined) attributes[k] = v;
    const span = this.tracer.startSpan(name, { kind: KINDS[options.kind], attributes }, parent);
    return { span, ctx: trace.setSpan(parent, span) };
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

let running: NodeSDK | undefined;

/**
 * Redis commands as client spans (`get`, `set`, `evalsha`...), only inside a trace (a heartbeat's
 * commands make none), named by the command with the command alone as `db.query.text`: keys and
 * arguments may be user data or secrets.
 */
function redisInstrumentation(): IORedisInstrumentation {
  return new IORedisInstrumentation({
    requireParentSpan: true,
    dbStatementSerializer: (command) => command,
  });
}

/**
 * ioredis is loaded before tracing starts (the cache imports it), and a require hook only sees
 * later loads (none under jest's module registry): the loaded class is patched here, through the
 * instrumentation's own module definition, so `disable` unpatches it.
 */
function patchLoadedRedis(instrumentation: IORedisInstrumentation): void {
  for (const def of instrumentation.getModuleDefinitions()) {
    if (def.name !== 'ioredis' || typeof def.patch !== 'function') continue;
    def.moduleExports = Redis;
    def.moduleVersion = ioredisVersion;
    def.patch(Redis, ioredisVersion);
  }
}

/**
 * Starts OpenTelemetry for this process (once: a second call returns a handle that does nothing)
 * and installs its tracer as `telemetry.tracer`. Traces only: no metrics or logs are exported
 * (Prometheus serves the metrics).
 */
export function startTracing(options: TracingOptions): TracingHandle {
  if (running) return { shutdown: async () => undefined };
  const endpoint = options.endpoint?.replace(/\/+$/, '');
  const spanProcessors = options.spanProcessors ?? [
    new BatchSpanProcessor({
      exporter: new OTLPTraceExporter(endpoint ? { url: `${endpoint}/v1/traces` } : {}),
    }),
  ];
  const redis = redisInstrumentation();
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors,
    instrumentations: [redis],
    metricReaders: [],
    logRecordProcessors: [],
    autoDetectResources: false,
  });
  sdk.start();
  patchLoadedRedis(redis);
  running = sdk;
  telemetry.tracer = new OpenTelemetryTracer(trace.getTracer('agent-runtime-service'));
  return {
    shutdown: async () => {
      if (running !== sdk) return;
      telemetry.tracer = undefined;
      running = undefined;
      redis.disable();
      await sdk.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
