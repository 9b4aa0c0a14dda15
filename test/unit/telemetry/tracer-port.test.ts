import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startTracing } from '../../../src/telemetry/otel-tracing';
import { telemetry } from '../../../src/telemetry/tracing';

/** The tracer port over OpenTelemetry: active spans across awaits, remote parents, failures. */
describe('the OpenTelemetry tracer', () => {
  it('is off until started; nests across awaits, honours a remote parent, ignores a malformed one', async () => {
    expect(telemetry.tracer).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing({
      serviceName: 't',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    try {
      const tracer = telemetry.tracer!;
      let inner = '';
      const outer = await tracer.inSpan('outer', { kind: 'server' }, async (span) => {
        await new Promise((r) => setTimeout(r, 5));
        tracer.inSpan('inner', { kind: 'internal' }, (child) => (inner = child.traceparent));
        return span.traceparent;
      });
      expect(outer).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const traceOf = (tp: string) => tp.slice(3, 35);
      expect(traceOf(inner)).toBe(traceOf(outer));
      const remote = tracer.startSpan('turn', { kind: 'consumer', parent: outer });
      expect(traceOf(remote.traceparent)).toBe(traceOf(outer));
      remote.end();
      const orphan = tracer.startSpan('turn', { kind: 'consumer', parent: '00-zz' });
      expect(traceOf(orphan.traceparent)).not.toBe(traceOf(outer));
      orphan.end();
      await expect(
        tracer.inSpan('failing', { kind: 'internal' }, async () => {
          throw Object.assign(new Error('secret detail'), { code: 'NOT_FOUND' });
        }),
      ).rejects.toThrow('secret detail');
      const spans = exporter.getFinishedSpans();
      const byName = (n: string) => spans.filter((s) => s.name === n);
      expect(byName('inner')[0].parentSpanContext?.spanId).toBe(byName('outer')[0].spanContext().spanId);
      const failed = byName('failing')[0];
      expect(failed.status).toEqual({ code: 2, message: 'NOT_FOUND' });
      expect(JSON.stringify(failed.attributes)).not.toContain('secret');
    } finally {
      await tracing.shutdown();
    }
    expect(telemetry.tracer).toBeUndefined();
  });
});
