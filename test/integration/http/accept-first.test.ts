import net from 'node:net';
import express from 'express';
import { listen, type HttpServerHandle } from '../../../src/http/listen';

/**
 * The front door under a burst of new connections (src/http/accept-first.ts): through a real
 * server, every request is answered, and another sender's request, sent after a burst of one
 * sender's, is not served after the whole burst.
 */

/** One GET on a connection of its own; resolves the status code once the server closed it. */
function get(port: number, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(
        `GET /work HTTP/1.1\r\nhost: x\r\nauthorization: ${authorization}\r\nconnection: close\r\n\r\n`,
      ),
    );
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (head += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
  });
}

describe('the front door under a burst of new connections', () => {
  let handle: HttpServerHandle | undefined;
  afterEach(async () => {
    await handle?.close(1000);
    handle = undefined;
  });

  it("answers every request, and serves another sender's request before the end of a burst sent before it", async () => {
    const served: string[] = [];
    const app = express();
    app.get('/work', (req, res) => {
      // A couple of milliseconds of work each, as a request of the service takes.
      const until = performance.now() + 2;
      while (performance.now() < until);
      served.push(String(req.headers.authorization));
      res.json({ ok: true });
    });
    handle = await listen(app, { host: '127.0.0.1', port: 0 });
    const burst = Array.from({ length: 150 }, () => get(handle!.port, 'Bearer a'));
    const other = get(handle.port, 'Bearer b');
    const statuses = await Promise.all([...burst, other]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(151);
    expect(served).toHaveLength(151);
    // Served in the order accepted and read (Node's own), it would come 151st; in turns between
    // senders it comes as soon as it is read, well before the burst's second half.
    expect(served.indexOf('Bearer b')).toBeGreaterThanOrEqual(0);
    expect(served.indexOf('Bearer b')).toBeLessThan(75);
  });
});
