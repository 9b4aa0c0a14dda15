import type { Logger } from '../../logging/logger';
import { silentLogger } from '../../logging/logger';
import { Store } from './engine/store';
import { openPersistentStore, type PersistentStore } from './persistence/recovery';
import { WireServer } from './server';

export { embeddedClientOptions } from './client-options';
export { commandCounts } from './commands/dispatch';
export { embeddedCommandCounts, startEmbeddedMongoThread } from './thread';

/** Options of `startEmbeddedMongo`. */
export interface EmbeddedMongoOptions {
  /** Data directory (journal and lock file). Default: none, memory only (tests). */
  dir?: string;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Loopback address to listen on; only 127.0.0.1 (the default) is accepted. */
  host?: '127.0.0.1';
  /** Where to log; default silent. */
  logger?: Logger;
}

/** A running embedded server. */
export interface EmbeddedMongo {
  /** Connection string for the official driver, e.g. `mongodb://127.0.0.1:40123/`. */
  url: string;
  port: number;
  /** Stops listening, waits for pending journal writes, releases the data directory. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1']);

/**
 * Starts the embedded MongoDB-wire-compatible server. With `dir`, every acknowledged write is in the
 * journal under it (fsynced before the reply) and the data survives restarts and crashes.
 */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new Error(`embedded-mongo listens on loopback only (127.0.0.1); refusing host '${String(host)}'`);
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${String(port)}`);
  const logger = (options.logger ?? silentLogger).child({ component: 'embedded-mongo' });
  let persistent: PersistentStore | undefined;
  let store: Store;
  if (options.dir) {
    persistent = await openPersistentStore(options.dir, logger);
    store = persistent.store;
  } else {
    store = new Store();
  }
  let wire: WireServer;
  let actualPort: number;
  try {
    ({ wire, port: actualPort } = await WireServer.listen(store, host, port, logger));
  } catch (err) {
    await persistent?.close();
    throw err;
  }
  const url = `mongodb://${host}:${actualPort}/`;
  logger.info({ url, dir: options.dir ?? null }, 'embedded-mongo listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    port: actualPort,
    close: () => {
      closing ??= (async () => {
        await wire.close();
        await persistent?.close();
      })();
      return closing;
    },
  };
}
