import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedStreamEvents } from './fixed-events';

/**
 * The floor of `bench:streams`' intent part: a bare `node:http` server (no framework, no
 * authentication, nothing stored) answering `POST /bare/intent/stream` with the three events of a
 * stream answered at once (`execution`, `reply`, `done`, each about the size of the service's),
 * after reading and parsing the JSON body. Measured with the same client and the same burst as
 * the service, in the same run: what 1,000 new connections cost on this machine before the
 * service does anything. IPC: sends `{event: 'ready', url}`; stops on `{cmd: 'stop'}`.
 */
function answer(message: string): string {
  return fixedStreamEvents(message)
    .map((data, i) => `id: ${i + 1}\nevent: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
    .join('');
}

function main(): void {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let message: string;
      try {
        message = String((JSON.parse(body) as { message?: unknown }).message ?? '');
      } catch {
        res.writeHead(400).end();
        return;
      }
      const text = answer(message);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  // The same listen backlog as the service's server (src/http/listen.ts): with Node's default of
  // 511, a burst of 1,000 new connections overflows the accept queue, and the dropped ones come
  // back a second later, which measures the kernel's retransmission, not the server.
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ event: 'ready', url: `http://127.0.0.1:${port}` });
  });
  const stop = () => {
    server.closeAllConnections();
    server.close();
    process.exit(0);
  };
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'stop') stop();
  });
  process.on('disconnect', stop);
}

main();
