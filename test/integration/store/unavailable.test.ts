import net from 'node:net';
import { z } from 'zod';
import type { AppError } from '../../../schemas/errors';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../src/store/embedded-mongo';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { connectDocumentStore } from '../../../src/store/mongo/document-store';

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const things = defineCollection({ name: 'things', schema: z.object({ _id: z.string() }) });
const fast = { serverSelectionTimeoutMS: 400, connectTimeoutMS: 400 };

describe('document store unreachable', () => {
  it('connecting to a closed port fails quickly with UNAVAILABLE, without the credentials', async () => {
    const started = Date.now();
    const err = (await connectDocumentStore({
      url: `mongodb://admin:hunter2-secret@127.0.0.1:${await closedPort()}/app`,
      dbName: 'app',
      clientOptions: { ...fast, directConnection: true },
    }).catch((e: unknown) => e)) as AppError;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      status: 503,
      retryable: true,
      message: 'document store unreachable',
      details: { reason: 'MongoServerSelectionError' },
    });
    expect(JSON.stringify(err.toBody())).not.toContain('hunter2');
    expect(err.message).not.toContain('hunter2');
  });

  it('a malformed URL is refused without echoing it', async () => {
    const err = (await connectDocumentStore({ url: 'mongodb://u:pw-secret@', dbName: 'x' }).catch(
      (e: unknown) => e,
    )) as AppError;
    expect(err).toMatchObject({ code: 'INTERNAL_ERROR', message: 'invalid document store URL' });
    expect(JSON.stringify(err.toBody())).not.toContain('pw-secret');
  });

  it('when the server goes away, operations fail with UNAVAILABLE within the selection timeout and status is down', async () => {
    const server = await startEmbeddedMongo({});
    const store = await connectDocumentStore({
      url: server.url,
      dbName: 'gone',
      clientOptions: { ...embeddedClientOptions, ...fast },
      statusCacheMs: 0,
      statusTimeoutMs: 300,
    });
    try {
      const repo = store.repository(things);
      await repo.insert({ _id: 'a' });
      expect((await store.status()).state).toBe('up');
      await server.close();
      const started = Date.now();
      const results = await Promise.allSettled([repo.findById('a'), repo.insert({ _id: 'b' }), repo.count()]);
      expect(Date.now() - started).toBeLessThan(2000);
      for (const r of results) {
        expect(r.status).toBe('rejected');
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          code: 'UNAVAILABLE',
          message: 'document store unreachable',
          details: { collection: 'things' },
        });
      }
      expect(await store.status()).toMatchObject({ state: 'down' });
    } finally {
      await store.close();
      await server.close();
    }
  });

  it('after close, calls fail with UNAVAILABLE and status says closed', async () => {
    const server = await startEmbeddedMongo({});
    const store = await connectDocumentStore({
      url: server.url,
      dbName: 'closed',
      clientOptions: embeddedClientOptions,
      afterClose: () => server.close(),
    });
    await store.close();
    await store.close(); // idempotent
    await expect(store.repository(things).findById('a')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await store.status()).toEqual({ state: 'down', detail: 'document store closed' });
  });
});
