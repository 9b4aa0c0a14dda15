import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started proxy: its address first, its target set once the server behind it runs. */
export interface AuthProxy {
  readonly url: string;
  /** Forward to `target` (an origin), adding `Authorization: <authorization>`. */
  point(target: string, authorization: string): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy that adds `Authorization` to every request (for clients that take no
 * header option, such as the MCP conformance suite: `/mcp` always authenticates). It listens before
 * the server behind it starts, so that server's PUBLIC_BASE_URL can be the proxy's address (the
 * address its clients use, as behind any proxy). Bodies stream both ways, so event streams pass
 * as they come. 502 until `point` was called.
 */
export async function startAuthProxy(): Promise<AuthProxy> {
  let to: URL | undefined;
  let auth = '';
  const server = http.createServer((req, res) => {
    if (!to) {
      res.writeHead(502).end();
      return;
    }
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: auth },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    point(target, authorization) {
      to = new URL(target);
      auth = authorization;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
