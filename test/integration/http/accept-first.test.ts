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

  it('goes on serving when clients leave while their requests wait in the queue', async () => {
    let served = 0;
    const app = express();
    app.use(express.json());
    app.all('/work', (_req, res) => {
      const until = performance.now() + 2;
      while (performance.now() < until);
      served += 1;
      res.json({ ok: true });
    });
    handle = await listen(app, { host: '127.0.0.1', port: 0 });
    const port = handle.port;
    // Requests sent with a burst and dropped at once, before their turn: a body-less GET and a POST
    // whose JSON body the app would still read.
    const leavers = Array.from({ length: 20 }, (_, i) => {
      const body = JSON.stringify({ i });
      const request =
        i % 2 === 0
          ? 'GET /work HTTP/1.1\r\nhost: x\r\n\r\n'
          : `POST /work HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      return new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(request);
          socket.destroy();
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    });
    const stayers = Array.from({ length: 50 }, () => get(port, 'Bearer a'));
    await Promise.all(leavers);
    expect((await Promise.all(stayers)).every((s) => s === 200)).toBe(true);
    // The server is still whole: a request after all that is answered.
    expect(await get(port, 'Bearer b')).toBe(200);
    expect(served).toBeGreaterThanOrEqual(51);
  });
});
