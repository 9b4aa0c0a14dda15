import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serialize } from 'bson';
import { silentLogger } from '../../../../src/logging/logger';
import { Store, withBatch } from '../../../../src/store/embedded-mongo/engine/store';
import {
  JOURNAL_MAGIC,
  frameRecord,
  readRecords,
} from '../../../../src/store/embedded-mongo/persistence/record-codec';
import { JOURNAL_FILE, openPersistentStore } from '../../../../src/store/embedded-mongo/persistence/recovery';

function read(file: string): { payloads: number; ignored: number } {
  const fd = openSync(file, 'r');
  try {
    let payloads = 0;
    const outcome = readRecords(fd, fstatSync(fd).size, () => (payloads += 1));
    return { payloads, ignored: outcome.ignoredBytes };
  } finally {
    closeSync(fd);
  }
}

describe('journal records', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'emb-mongo-rec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops at a torn header, a torn payload or a bad checksum', () => {
    const file = path.join(dir, 'j');
    const records = [1, 2, 3].map((i) => Buffer.concat(frameRecord(serialize({ i, pad: 'x'.repeat(100) }))));
    const good = Buffer.concat([JOURNAL_MAGIC, ...records]);
    writeFileSync(file, good);
    expect(read(file)).toEqual({ payloads: 3, ignored: 0 });
    writeFileSync(file, good.subarray(0, good.length - 50));
    expect(read(file)).toEqual({ payloads: 2, ignored: records[2].length - 50 });
    writeFileSync(file, Buffer.concat([good, Buffer.from([1, 2, 3])]));
    expect(read(file)).toEqual({ payloads: 3, ignored: 3 });
    const flipped = Buffer.from(good);
    flipped[JOURNAL_MAGIC.length + records[0].length + 20] ^= 1;
    writeFileSync(file, flipped);
    expect(read(file)).toEqual({ payloads: 1, ignored: records[1].length + records[2].length });
    writeFileSync(file, Buffer.from('not a journal at all, sorry'));
    expect(() => read(file)).toThrow(/magic/);
  });

  it('recovers, compacts at start and online, and survives reopening', async () => {
    let opened = await openPersistentStore(dir, silentLogger, {
      compactMinBytes: 16 * 1024,
      compactRatio: 1,
    });
    const write = (i: number) =>
      withBatch(opened.store, (batch) => {
        const coll = batch.ensureCollection('db', 'c');
        const existing = coll.docs.get(`s${i % 20}`);
        const doc = { _id: `${i % 20}`, i, pad: 'y'.repeat(500) };
        if (existing) batch.replace(coll, existing, doc);
        else batch.insert(coll, doc);
      });
    // Concurrent writers share fsyncs (group commit); 400 rewrites of 20 documents.
    for (let round = 0; round < 20; round++)
      await Promise.all(Array.from({ length: 20 }, (_, k) => write(round * 20 + k)));
    const file = path.join(dir, JOURNAL_FILE);
    // Without online compaction the journal would hold all 400 versions (> 200 KiB).
    expect(statSync(file).size).toBeLessThan(80 * 1024);
    await opened.close();

    opened = await openPersistentStore(dir, silentLogger);
    const docs = [...opened.store.collection('db', 'c')!.docs.values()];
    expect(docs).toHaveLength(20);
    expect(docs.map((d) => d.i).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, k) => 380 + k));
    // Compacted at start: one record per collection and per live document.
    expect(read(file).payloads).toBe(21);
    await opened.close();
    expect(readFileSync(file).subarray(0, JOURNAL_MAGIC.length).equals(JOURNAL_MAGIC)).toBe(true);
  });

  it('compacts online in slices, serving the event loop, and keeps the writes made meanwhile', async () => {
    let opened = await openPersistentStore(dir, silentLogger, {
      compactMinBytes: 64 * 1024,
      compactRatio: 1,
    });
    const store = opened.store;
    await withBatch(store, (batch) => {
      const coll = batch.ensureCollection('db', 'c');
      for (let i = 0; i < 5000; i++) batch.insert(coll, { _id: `d${i}`, pad: 'z'.repeat(40) });
      // Serialised after `c`: renamed while `c` is being serialised.
      batch.insert(batch.ensureCollection('db', 'other'), { _id: 'o1' });
    });
    // Every document rewritten once: half of what the journal holds is dead (compaction reclaims).
    await withBatch(store, (batch) => {
      const coll = store.collection('db', 'c')!;
      for (let i = 0; i < 5000; i++) {
        const old = coll.docs.get(`sd${i}`)!;
        batch.replace(coll, old, { ...old, v: 2 });
      }
    });
    // The next write finds the journal grown past the threshold: it is covered by a compaction.
    const snapshot = jest.spyOn(store, 'snapshotRecordsInSlices');
    let compacting = false;
    snapshot.mockImplementation(async (sliceSize?: number) => {
      compacting = true;
      try {
        return await Store.prototype.snapshotRecordsInSlices.call(store, sliceSize);
      } finally {
        compacting = false;
      }
    });
    let ticksWhileCompacting = 0;
    let meanwhile: Promise<unknown> | undefined;
    let stop = false;
    const tick = () => {
      if (compacting) {
        ticksWhileCompacting++;
        // A write while the snapshot is being serialised: it follows the snapshot in the journal.
        meanwhile ??= withBatch(store, (batch) => {
          const coll = batch.ensureCollection('db', 'c');
          batch.remove(coll, coll.docs.get('sd0')!);
          batch.insert(coll, { _id: 'late' });
          batch.renameCollection(store.collection('db', 'other')!, 'renamed');
        });
      }
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    await withBatch(store, (batch) => batch.insert(batch.ensureCollection('db', 'c'), { _id: 'covered' }));
    stop = true;
    await meanwhile;
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(ticksWhileCompacting).toBeGreaterThan(0);
    expect(meanwhile).toBeDefined();
    await opened.close();

    opened = await openPersistentStore(dir, silentLogger);
    expect(opened.store.collection('db', 'other')).toBeUndefined();
    expect([...opened.store.collection('db', 'renamed')!.docs.keys()]).toEqual(['so1']);
    const coll = opened.store.collection('db', 'c')!;
    expect(coll.docs.size).toBe(5001);
    expect(coll.docs.has('scovered') && coll.docs.has('slate')).toBe(true);
    expect(coll.docs.has('sd0')).toBe(false);
    await opened.close();
  });

  it('compacts on what is dead in the journal, not on its growth', async () => {
    const opened = await openPersistentStore(dir, silentLogger, {
      compactMinBytes: 32 * 1024,
      compactRatio: 2,
    });
    const store = opened.store;
    const snapshot = jest.spyOn(store, 'snapshotRecordsInSlices');
    const insert = (from: number) =>
      withBatch(store, (batch) => {
        const coll = batch.ensureCollection('db', 'logs');
        for (let i = from; i < from + 500; i++) batch.insert(coll, { _id: `l${i}`, pad: 'p'.repeat(100) });
      });
    // Insert-only growth far past the threshold: nothing would be reclaimed, so no rewrite.
    for (let k = 0; k < 10; k++) await insert(k * 500);
    const file = path.join(dir, JOURNAL_FILE);
    const grown = statSync(file).size;
    expect(grown).toBeGreaterThan(10 * 32 * 1024);
    expect(snapshot).not.toHaveBeenCalled();
    // Removing most of it makes more than half the journal dead: the next write rewrites it.
    await withBatch(store, (batch) => {
      const coll = store.collection('db', 'logs')!;
      for (let i = 0; i < 4000; i++) batch.remove(coll, coll.docs.get(`sl${i}`)!);
    });
    await insert(5000);
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(statSync(file).size).toBeLessThan(grown / 2);
    await opened.close();
    const again = await openPersistentStore(dir, silentLogger);
    expect(again.store.collection('db', 'logs')!.docs.size).toBe(1500);
    await again.close();
  });

  it('after a failed compaction, keeps the writes and tries again only after more growth', async () => {
    const opened = await openPersistentStore(dir, silentLogger, {
      compactMinBytes: 40 * 1024,
      compactRatio: 1.5,
    });
    const store = opened.store;
    const snapshot = jest
      .spyOn(store, 'snapshotRecordsInSlices')
      .mockRejectedValueOnce(new Error('disk full'));
    // Each round rewrites 50 documents: about 18 KB, all of the round before made dead.
    const rewrite = (round: number) =>
      withBatch(store, (batch) => {
        const coll = batch.ensureCollection('db', 'c');
        for (let i = 0; i < 50; i++) {
          const doc = { _id: `d${i}`, round, pad: 'q'.repeat(300) };
          const old = coll.docs.get(`sd${i}`);
          if (old) batch.replace(coll, old, doc);
          else batch.insert(coll, doc);
        }
      });
    for (let round = 0; round < 3; round++) await rewrite(round);
    expect(snapshot).not.toHaveBeenCalled();
    // Grown past 40 KB, two thirds dead: the compaction fails, and the round still lands.
    await rewrite(3);
    expect(snapshot).toHaveBeenCalledTimes(1);
    // Not tried again on every batch: only after another 40 KB.
    await rewrite(4);
    await rewrite(5);
    expect(snapshot).toHaveBeenCalledTimes(1);
    await rewrite(6);
    expect(snapshot).toHaveBeenCalledTimes(2);
    await rewrite(7);
    await opened.close();
    const again = await openPersistentStore(dir, silentLogger);
    const docs = [...again.store.collection('db', 'c')!.docs.values()];
    expect(docs).toHaveLength(50);
    expect(docs.every((d) => d.round === 7)).toBe(true);
    await again.close();
  });

  it('refuses writes after a journal failure instead of pretending', async () => {
    const opened = await openPersistentStore(dir, silentLogger);
    const journal = opened.store.journal!;
    // Simulate a disk failure: the underlying file handle goes away.
    await (journal as unknown as { handle: { close(): Promise<void> } }).handle.close();
    const first = withBatch(opened.store, (b) => b.insert(b.ensureCollection('db', 'c'), { _id: 1 }));
    await expect(first).rejects.toThrow(/journal write failed/);
    await expect(
      withBatch(opened.store, (b) => b.insert(b.ensureCollection('db', 'c'), { _id: 2 })),
    ).rejects.toThrow(/refused/);
    await opened.close().catch(() => undefined);
  });
});
