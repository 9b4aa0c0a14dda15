import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { killAllChildren, startChild } from '../../support/child-process';
import { waitFor } from '../../support/async';

const CHILD = path.join(__dirname, 'support/tracing-runtime.child.ts');
type Ready = { event: string; url: string; otelLoaded: boolean };

/**
 * Tracing as an operator turns it on: OTEL_EXPORTER_OTLP_ENDPOINT set, the process sends its
 * spans over OTLP/HTTP to `<endpoint>/v1/traces`; unset, the OpenTelemetry SDK is not even loaded.
 * (Child processes: the OTLP exporter loads `http` with a dynamic import jest's VM refuses.)
 */
describe('traces over OTLP', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-otlp-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await killAllChildren();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exports the spans of a request to the collector; loads no SDK when the endpoint is unset', async () => {
    const bodies: Array<{ url: string; body: string }> = [];
    const collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    try {
      const common = { PORT: '0', LOG_LEVEL: 'silent', METRICS: 'on' };
      const off = startChild(CHILD, { ...common, DATA_DIR: tmp() });
      const offReady = await off.waitForMessage<Ready>((m) => m.event === 'ready', 'ready (off)', 60_000);
      expect(offReady.otelLoaded).toBe(false);
      await off.kill('SIGKILL');

      const on = startChild(CHILD, {
        ...common,
        DATA_DIR: tmp(),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: 'otlp-export-test',
      });
      const ready = await on.waitForMessage<Ready>((m) => m.event === 'ready', 'ready (on)', 60_000);
      expect(ready.otelLoaded).toBe(true);
      const res = await fetch(`${ready.url}/api/ops/crew`);
      expect(res.status).toBe(200);
      on.process.disconnect();
      await on.exited;
      await waitFor(
        () => bodies.some((b) => b.body.includes('GET /api/ops/crew')),
        'the exported span',
        10_000,
      );
      expect(bodies.every((b) => b.url === '/v1/traces')).toBe(true);
      expect(bodies.some((b) => b.body.includes('otlp-export-test'))).toBe(true);
    } finally {
      collector.close();
    }
  }, 120_000);
});
