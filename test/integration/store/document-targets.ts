import { randomUUID } from 'node:crypto';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../src/store/embedded-mongo';
import { connectDocumentStore, type DocumentStore } from '../../../src/store/mongo/document-store';
import { serviceUrl } from '../../support/services';

/** A connected store on a database of its own, and how to remove it. */
export interface DocumentTarget {
  store: DocumentStore;
  cleanup(): Promise<void>;
}

export interface DocumentTargetFactory {
  name: string;
  skip?: string;
  create(): Promise<DocumentTarget>;
}

/** The embedded server, in memory (no data dir), one per suite. */
export const embeddedTarget: DocumentTargetFactory = {
  name: 'embedded',
  async create() {
    const server = await startEmbeddedMongo({});
    const store = await connectDocumentStore({
      url: server.url,
      dbName: 'test',
      clientOptions: embeddedClientOptions,
      afterClose: () => server.close(),
    });
    return { store, cleanup: () => store.close() };
  },
};

/** A real MongoDB (MONGODB_URL), on a throwaway database that is dropped afterwards. */
export const realMongoTarget: DocumentTargetFactory = {
  name: 'mongodb',
  skip: serviceUrl('mongodb') ? undefined : 'MONGODB_URL not set',
  async create() {
    const store = await connectDocumentStore({
      url: serviceUrl('mongodb') as string,
      dbName: `test_store_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    });
    return {
      store,
      async cleanup() {
        await store.db.dropDatabase();
        await store.close();
      },
    };
  },
};

/** Runs `fn` once per reachable document server, with a fresh store for the block. */
export function describeEachDocumentStore(
  title: string,
  fn: (get: () => DocumentStore, target: string) => void,
): void {
  for (const factory of [embeddedTarget, realMongoTarget]) {
    const block = factory.skip ? describe.skip : describe;
    block(`${title} [${factory.name}]${factory.skip ? ` (${factory.skip}: skipped)` : ''}`, () => {
      let target: DocumentTarget | undefined;
      beforeAll(async () => {
        target = await factory.create();
      });
      afterAll(async () => {
        await target?.cleanup();
      });
      fn(() => (target as DocumentTarget).store, factory.name);
    });
  }
}
