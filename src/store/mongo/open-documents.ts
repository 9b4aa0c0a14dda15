import path from 'node:path';
import type { Config } from '../../config/load-config';
import type { Logger } from '../../logging/logger';
import { embeddedClientOptions, startEmbeddedMongo, startEmbeddedMongoThread } from '../embedded-mongo';
import { connectDocumentStore, type DocumentStore } from './document-store';

/** Database used when `MONGODB_URL` names none, and in embedded mode. */
export const DEFAULT_DB_NAME = 'agent_runtime';

/** The database named in a MongoDB URL's path (`mongodb://h/dbname?…`), if any. */
export function dbNameFromUrl(url: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name.length > 0 ? name : undefined;
}

/**
 * The document store of this process. With `MONGODB_URL`, that server (database from the URL's
 * path, else `agent_runtime`); without it, the embedded MongoDB-wire-compatible server is started
 * under `DATA_DIR/documents` (on a thread of its own with `DOCUMENTS_THREAD`:
 * `startEmbeddedMongoThread`) and reached through the same driver code; `close()` stops it too.
 */
export async function openDocuments(
  config: Pick<Config, 'MONGODB_URL' | 'DATA_DIR'> & Partial<Pick<Config, 'DOCUMENTS_THREAD'>>,
  logger: Logger,
): Promise<DocumentStore> {
  const log = logger.child({ component: 'documents' });
  if (config.MONGODB_URL) {
    return connectDocumentStore({
      url: config.MONGODB_URL,
      dbName: dbNameFromUrl(config.MONGODB_URL) ?? DEFAULT_DB_NAME,
      logger: log,
    });
  }
  const dir = path.join(config.DATA_DIR, 'documents');
  const server = config.DOCUMENTS_THREAD
    ? await startEmbeddedMongoThread({ dir, logger })
    : await startEmbeddedMongo({ dir, logger });
  try {
    return await connectDocumentStore({
      url: server.url,
      dbName: DEFAULT_DB_NAME,
      logger: log,
      clientOptions: embeddedClientOptions,
      afterClose: () => server.close(),
    });
  } catch (err) {
    await server.close();
    throw err;
  }
}
