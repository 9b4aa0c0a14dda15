import net from 'node:net';

/**
 * A TCP forwarder placed between a client and a real service, so a test can make the service
 * unreachable (`cut`: live connections are reset and new ones refused) and bring it back
 * (`restore`), without touching the service that other tests share.
 */
export interface TcpProxy {
  readonly port: number;
  /** Rewrites a service URL (e.g. amqp://user:pass@127.0.0.1:5672/vh) to go through the proxy. */
  url(serviceUrl: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A proxy to the host and port of a service URL (`defaultPort` when the URL names none). */
export async function startTcpProxyTo(serviceUrl: string, defaultPort: number): Promise<TcpProxy> {
  const target = new URL(serviceUrl);
  return startTcpProxy(target.hostname, Number(target.port || defaultPort));
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  let port = 0;
  await listen();
  port = (server.address() as net.AddressInfo).port;
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const resetAll = () => {
    for (const s of sockets) s.resetAndDestroy();
    sockets.clear();
  };
  return {
    port,
    url(serviceUrl) {
      const u = new URL(serviceUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      const closed = stopListening();
      resetAll();
      await closed;
    },
    async restore() {
      if (!server.listening) await listen();
    },
    async close() {
      const closed = server.listening ? stopListening() : Promise.resolve();
      resetAll();
      await closed;
    },
  };
}
