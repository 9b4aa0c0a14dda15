import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../logging/logger';
import type { ServerContext } from './commands/types';
import { CursorRegistry } from './engine/cursors';
import type { Store } from './engine/store';
import { sweepExpired } from './engine/ttl-sweeper';
import { WireConnection } from './wire/connection';

/** How often expired TTL documents are deleted. */
const TTL_SWEEP_MS = 1000;
/** How often idle cursors are looked for. */
const CURSOR_SWEEP_MS = 60_000;

/** The TCP side: accepts connections and runs the periodic sweepers. */
export class WireServer {
  private readonly connections = new Set<WireConnection>();
  private readonly timers: NodeJS.Timeout[] = [];
  private nextConnectionId = 1;
  private sweeping = false;
  readonly ctx: ServerContext;

  private constructor(
    private readonly server: Server,
    store: Store,
    private readonly logger: Logger,
  ) {
    this.ctx = { store, cursors: new CursorRegistry(), logger, startedAt: new Date() };
  }

  static async listen(
    store: Store,
    host: string,
    port: number,
    logger: Logger,
  ): Promise<{ wire: WireServer; port: number }> {
    const server = createServer();
    const wire = new WireServer(server, store, logger);
    server.on('connection', (socket: Socket) => wire.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => logger.error({ err }, 'embedded-mongo server error'));
    wire.startTimers();
    const address = server.address();
    return { wire, port: typeof address === 'object' && address ? address.port : port };
  }

  private accept(socket: Socket): void {
    const conn = new WireConnection(socket, this.nextConnectionId++, this.ctx);
    this.connections.add(conn);
    socket.on('close', () => this.connections.delete(conn));
  }

  private startTimers(): void {
    const ttl = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = true;
      sweepExpired(this.ctx.store)
        .catch((err) => this.logger.error({ err }, 'embedded-mongo TTL sweep failed'))
        .finally(() => {
          this.sweeping = false;
        });
    }, TTL_SWEEP_MS);
    const cursors = setInterval(() => this.ctx.cursors.sweep(), CURSOR_SWEEP_MS);
    ttl.unref();
    cursors.unref();
    this.timers.push(ttl, cursors);
  }

  /** Stops accepting, drops every connection, and waits for the listener to close. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const conn of this.connections) conn.close();
    this.connections.clear();
    await closed;
  }
}
