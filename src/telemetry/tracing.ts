/**
 * The process's tracer, as a port (docs/operations.md, "Traces"). It is `undefined` unless
 * OpenTelemetry was started (`OTEL_EXPORTER_OTLP_ENDPOINT`, see otel-tracing.ts): every traced
 * place reads `telemetry.tracer` once and does nothing more when it is absent, so tracing off
 * costs one property read and loads no SDK. Nothing here imports OpenTelemetry.
 */

/** What a span is to the service (OpenTelemetry's SpanKind by name). */
export type TraceSpanKind = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

export type TraceAttributes = Record<string, string | number | boolean | undefined>;

export interface TraceSpanOptions {
  readonly kind: TraceSpanKind;
  readonly attributes?: TraceAttributes;
  /**
   * The parent as a W3C `traceparent` (an envelope's, an incoming request's header). Without it,
   * or when it is malformed, the span is a child of the active span (a root span without one).
   */
  readonly parent?: string;
}

export interface TraceSpan {
  /** This span as a W3C `traceparent`: what a message it causes carries (envelope.traceparent). */
  readonly traceparent: string;
  setAttribute(key: string, value: string | number | boolean): void;
  rename(name: string): void;
  /** Marks the span failed (status ERROR, the error's code or name; never its message). */
  fail(error: unknown): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
}

export interface Tracer {
  /**
   * Runs `fn` with a new span active (what `fn` starts, even asynchronously, is its child), and
   * ends the span when `fn` returns or its promise settles; a throw or rejection marks it failed.
   */
  inSpan<T>(name: string, options: TraceSpanOptions, fn: (span: TraceSpan) => T): T;
  /** Starts a span (child of the active one or of `options.parent`) without making it active. */
  startSpan(name: string, options: TraceSpanOptions): TraceSpan;
}

/** The process-wide tracer: `undefined` when tracing is off. */
export const telemetry: { tracer: Tracer | undefined } = { tracer: undefined };

/** A short, bounded description of a failure for a span's status (a code, never user data). */
export function failureCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.length <= 64) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name.length <= 64) return name;
  }
  return 'Error';
}
