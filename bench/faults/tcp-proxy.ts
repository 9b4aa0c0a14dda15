import net from 'node:net';

/**
 * A TCP forwarder in front of a real service (RabbitMQ, Redis) that `bench:faults` can cut: `cut`
 * resets every live connection and stops listening, so clients see what a dead broker gives them
 * (reset connections, then refused connects, at once rather than after a timeout); `restore`
 * listens again on the same port. Like test/support/tcp-proxy.ts, plus the counts the report
 * shows, and kept under bench/ because the benchmarks are built without the tests.
 */
export class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  /** Client connections accepted so far (the nodes' reconnections show here). */
  accepted = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    public port: number,
  ) {
    this.server = net.createServer((client) => this.forward(client));
  }

  static async start(target: URL, defaultPort: number): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(target.hostname, Number(target.port || defaultPort), 0);
    await proxy.listen();
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  /** The service URL with this proxy's address in place of the service's. */
  url(serviceUrl: string): string {
    const u = new URL(serviceUrl);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  get cutOff(): boolean {
    return !this.server.listening;
  }

  async cut(): Promise<void> {
    const closed = this.server.listening
      ? new Promise<void>((resolve) => this.server.close(() => resolve()))
      : Promise.resolve();
    this.resetAll();
    await closed;
  }

  async restore(): Promise<void> {
    if (!this.server.listening) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private forward(client: net.Socket): void {
    this.accepted++;
    const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private resetAll(): void {
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
  }

  private listen(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }
}
