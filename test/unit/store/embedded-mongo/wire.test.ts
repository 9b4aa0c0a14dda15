import { serialize } from 'bson';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../../src/store/embedded-mongo';
import { msgBody, RawClient, replyBody } from './wire-client';

describe('embedded mongo wire protocol', () => {
  let server: EmbeddedMongo;
  let client: RawClient;

  beforeAll(async () => {
    server = await startEmbeddedMongo({});
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    client = await RawClient.open(server.port);
  });
  afterEach(() => client.close());

  it('answers the legacy OP_QUERY handshake with OP_REPLY', async () => {
    client.send(client.opQuery('admin', { isMaster: 1, helloOk: true }));
    const hello = replyBody(await client.reply());
    expect(hello).toMatchObject({ ismaster: true, helloOk: true, ok: 1, minWireVersion: 0 });
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(hello.topologyVersion).toBeUndefined(); // no awaitable hello is offered
    client.send(client.opQuery('admin', { ismaster: 1 }));
    expect(replyBody(await client.reply())).toMatchObject({ ismaster: true });
  });

  it('tolerates the OP_MSG checksum flag and merges kind-1 document sequences', async () => {
    client.send(client.opMsg({ ping: 1, $db: 'admin' }, { checksum: true }));
    expect(msgBody(await client.reply())).toEqual({ ok: 1 });
    const docs = [{ _id: 1 }, { _id: 2 }, { _id: 3 }];
    client.send(client.opMsg({ insert: 'c', $db: 'w' }, { sequences: [['documents', docs]] }));
    expect(msgBody(await client.reply())).toEqual({ n: 3, ok: 1 });
    client.send(
      client.opMsg({ delete: 'c', $db: 'w' }, { sequences: [['deletes', [{ q: { _id: 2 }, limit: 1 }]]] }),
    );
    expect(msgBody(await client.reply())).toEqual({ n: 1, ok: 1 });
    client.send(client.opMsg({ find: 'c', filter: {}, $db: 'w' }));
    expect(msgBody(await client.reply()).cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 3 }]);
  });

  it('sends no reply for moreToCome (w:0) but still applies the write', async () => {
    client.send(client.opMsg({ insert: 'quiet', documents: [{ _id: 'q' }], $db: 'w' }, { flags: 2 }));
    client.send(client.opMsg({ count: 'quiet', $db: 'w' }));
    expect(msgBody(await client.reply())).toEqual({ n: 1, ok: 1 });
  });

  it('answers errors for bad commands and keeps the connection', async () => {
    client.send(client.opMsg({ nope: 1, $db: 'admin' }));
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0, code: 59, codeName: 'CommandNotFound' });
    client.send(client.opMsg({ ping: 1 })); // no $db
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0, code: 22 });
    client.send(client.opMsg({ find: 'c', filter: 'not an object', $db: 'w' }));
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0, code: 14 });
    client.send(client.opMsg({ insert: 'c', documents: [{ _id: [1, 2] }], $db: 'w' }));
    expect(msgBody(await client.reply()).writeErrors).toEqual([
      expect.objectContaining({ index: 0, code: 2 }),
    ]);
    client.send(client.opMsg({ find: 'c', $db: 'w', txnNumber: 1, autocommit: false }));
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0, code: 20 });
    client.send(client.opMsg({ ping: 1, $db: 'admin' }));
    expect(msgBody(await client.reply())).toEqual({ ok: 1 });
  });

  it('answers a corrupt BSON body with an error instead of crashing', async () => {
    const msg = client.opMsg({ ping: 1, $db: 'admin' });
    msg.writeInt32LE(9999, 21); // BSON length beyond the message
    client.send(msg);
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0, code: 22 });
    const broken = client.opMsg({ ping: 1, $db: 'admin' });
    broken[broken.length - 2] = 0x7f; // corrupt element type inside the document
    client.send(broken);
    expect(msgBody(await client.reply())).toMatchObject({ ok: 0 });
  });

  it('reassembles messages split across TCP chunks and pipelined in one chunk', async () => {
    const a = client.opMsg({ ping: 1, $db: 'admin' });
    const b = client.opMsg({ buildInfo: 1, $db: 'admin' });
    const all = Buffer.concat([a, b]);
    for (let i = 0; i < all.length; i += 7) {
      client.send(all.subarray(i, i + 7));
      await new Promise((r) => setImmediate(r));
    }
    expect(msgBody(await client.reply())).toEqual({ ok: 1 });
    expect(msgBody(await client.reply())).toMatchObject({ version: expect.any(String), ok: 1 });
  });

  it('closes a connection that sends garbage, and goes on serving others', async () => {
    client.send(Buffer.from([3, 0, 0, 0, 1, 2, 3, 4]));
    await client.waitClosed();
    const huge = await RawClient.open(server.port);
    const header = Buffer.alloc(16);
    header.writeInt32LE(0x7fffffff, 0);
    huge.send(header);
    await huge.waitClosed();
    const legacyInsert = await RawClient.open(server.port);
    const op = Buffer.concat([Buffer.alloc(16), Buffer.from(serialize({ a: 1 }))]);
    op.writeInt32LE(op.length, 0);
    op.writeInt32LE(2002, 12); // OP_INSERT, removed from MongoDB
    legacyInsert.send(op);
    await legacyInsert.waitClosed();
    const fresh = await RawClient.open(server.port);
    fresh.send(fresh.opMsg({ ping: 1, $db: 'admin' }));
    expect(msgBody(await fresh.reply())).toEqual({ ok: 1 });
    fresh.close();
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startEmbeddedMongo({ host: '0.0.0.0' as never })).rejects.toThrow(/loopback/);
    await expect(startEmbeddedMongo({ port: 70000 })).rejects.toThrow(/port/);
  });
});
