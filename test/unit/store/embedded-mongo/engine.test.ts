import { Long, ObjectId, UUID, type Document } from 'bson';
import { aggregate, Query } from 'mingo';
import { compileFastFilter } from '../../../../src/store/embedded-mongo/engine/fast-filter';
import { fastUpdate } from '../../../../src/store/embedded-mongo/engine/fast-update';
import { matcher } from '../../../../src/store/embedded-mongo/engine/planner';
import { lookupKey, IndexKeyer } from '../../../../src/store/embedded-mongo/engine/index-spec';
import { compileFastProjection } from '../../../../src/store/embedded-mongo/engine/projection';
import { topSorted } from '../../../../src/store/embedded-mongo/engine/top-sorted';
import { Collection } from '../../../../src/store/embedded-mongo/engine/collection';
import { Store, withBatch } from '../../../../src/store/embedded-mongo/engine/store';
import { sweepExpired } from '../../../../src/store/embedded-mongo/engine/ttl-sweeper';
import { applyUpdate, parseUpdate } from '../../../../src/store/embedded-mongo/engine/update';
import { valueKey } from '../../../../src/store/embedded-mongo/engine/value-key';

describe('canonical value keys', () => {
  it('equal exactly when MongoDB equality says so', () => {
    expect(valueKey(1)).toBe(valueKey(1.0));
    expect(valueKey(1)).toBe(valueKey(Long.fromNumber(1)));
    expect(valueKey(0)).toBe(valueKey(-0));
    expect(valueKey(1)).not.toBe(valueKey('1'));
    expect(valueKey(true)).not.toBe(valueKey(1));
    expect(valueKey(new Date(5))).not.toBe(valueKey(5));
    const id = new ObjectId();
    expect(valueKey(id)).toBe(valueKey(new ObjectId(id.toHexString())));
    const uuid = new UUID();
    expect(valueKey(uuid)).toBe(valueKey(new UUID(uuid.toHexString())));
    expect(valueKey({ a: 1, b: 2 })).not.toBe(valueKey({ b: 2, a: 1 }));
    expect(valueKey(Long.fromString('9007199254740993'))).not.toBe(
      valueKey(Long.fromString('9007199254740992')),
    );
  });

  it('cannot confuse compound index keys', () => {
    expect(lookupKey(['a|sb', 'c'])).not.toBe(lookupKey(['a', 'b|sc']));
    expect(lookupKey(['a', 'b'])).not.toBe(lookupKey(['ab', '']));
    const keyer = new IndexKeyer({ v: 2, key: { org: 1, tags: 1 }, name: 'x', unique: true });
    expect(keyer.entries({ _id: 1, org: 'o', tags: ['a', 'b', 'a'] }).map((e) => e.key)).toEqual([
      lookupKey(['o', 'a']),
      lookupKey(['o', 'b']),
    ]);
    expect(keyer.entries({ _id: 1 }).map((e) => e.values)).toEqual([[null, null]]);
    expect(() =>
      new IndexKeyer({ v: 2, key: { a: 1, b: 1 }, name: 'p' }).entries({ _id: 1, a: [1, 2], b: [3, 4] }),
    ).toThrow(/parallel arrays/);
  });
});

describe('fast filter', () => {
  const oid = new ObjectId('65a000000000000000000001');
  const docs: Document[] = [
    {},
    { a: 1 },
    { a: 2 },
    { a: '1' },
    { a: null },
    { a: [1, 5] },
    { a: [] },
    { a: { b: 1 } },
    { a: [{ b: 1 }, { b: 7 }] },
    { a: true },
    { a: new Date(1000) },
    { a: oid },
    { a: 1.5 },
    { a: 'abc' },
    { a: ['x', 'y'] },
    { b: 1 },
    { a: 1, b: 1 },
  ];
  const filters: Document[] = [
    { a: 1 },
    { a: '1' },
    { a: true },
    { a: { $eq: 1 } },
    { a: { $ne: 1 } },
    { a: { $in: [1, 'x'] } },
    { a: { $nin: [1, 'x'] } },
    { a: { $gt: 1 } },
    { a: { $gte: 1 } },
    { a: { $lt: 2 } },
    { a: { $lte: 1.5 } },
    { a: { $gt: 'a' } },
    { a: { $exists: true } },
    { a: { $exists: false } },
    { 'a.b': 1 },
    { 'a.b': { $gt: 1 } },
    { a: new Date(1000) },
    { a: { $gt: new Date(0) } },
    { a: oid },
    { a: { $gte: 1, $lt: 5 } },
    { $and: [{ a: { $exists: true } }, { a: { $ne: 2 } }] },
    { a: 1, b: 1 },
    {},
  ];

  it('agrees with mingo on every supported filter', () => {
    for (const filter of filters) {
      const fast = compileFastFilter(filter);
      expect(fast).toBeDefined();
      const query = new Query(filter);
      for (const doc of docs) expect([filter, doc, fast!(doc)]).toEqual([filter, doc, query.test(doc)]);
    }
  });

  it('follows MongoDB where mingo does not', () => {
    expect(compileFastFilter({ a: 2 })!({ a: Long.fromNumber(2) })).toBe(true);
    expect(compileFastFilter({ 'a.b': 1 })!({ a: [[1]] })).toBe(false);
  });

  it('leaves everything else to mingo', () => {
    for (const f of [
      { a: null },
      { a: /x/ },
      { a: { $regex: 'x' } },
      { $or: [{ a: 1 }] },
      { a: [1] },
      { a: { b: 1 } },
      { 'a.0': 1 },
      { a: { $size: 1 } },
      { a: NaN },
    ]) {
      expect(compileFastFilter(f)).toBeUndefined();
    }
  });
});

describe('fast update and projection', () => {
  it('applies $set/$inc/$unset without touching the original and shares untouched parts', () => {
    const doc = { _id: 1, n: 1, meta: { a: 1, b: { c: 2 } }, big: { keep: [1, 2, 3] } };
    const frozen = JSON.stringify(doc);
    const r = fastUpdate(doc, {
      $set: { 'meta.b.c': 3, fresh: 'x' },
      $inc: { n: 2, 'counters.hits': 1 },
      $unset: { 'meta.a': '' },
    })!;
    expect(r.changed).toBe(true);
    expect(r.doc).toEqual({
      _id: 1,
      n: 3,
      meta: { b: { c: 3 } },
      big: { keep: [1, 2, 3] },
      fresh: 'x',
      counters: { hits: 1 },
    });
    expect(JSON.stringify(doc)).toBe(frozen);
    expect(r.doc.big).toBe(doc.big);
    expect(fastUpdate(doc, { $set: { n: 1 }, $unset: { missing: '' } })!.changed).toBe(false);
  });

  it('applies $max/$min to numbers and dates like the general path', () => {
    const at = new Date('2026-01-02T00:00:00Z');
    const later = new Date('2026-03-04T00:00:00Z');
    const doc = { _id: 1, hi: 5, lo: 5, seen: at, nested: { peak: 2 } };
    const cases: Document[] = [
      { $max: { hi: 7, lo: 3 }, $min: { 'nested.peak': 1 } },
      { $max: { hi: 5, seen: at }, $min: { lo: 5 } },
      { $max: { seen: later, fresh: 3 }, $min: { other: -1 } },
      { $inc: { hi: 1 }, $max: { lo: 9 }, $set: { s: 'x' } },
      { $max: { hi: -0 }, $min: { lo: 0 } },
    ];
    for (const u of cases) {
      const fast = fastUpdate(doc, u);
      expect(fast).toBeDefined();
      const general = applyUpdate(doc, parseUpdate({ ...u, $currentDate: {} }), {});
      expect(fast!.doc).toEqual(general ?? doc);
      expect(fast!.changed).toBe(general !== undefined);
    }
    expect(fastUpdate(doc, { $max: { hi: 4 }, $min: { lo: 6 } })!.changed).toBe(false);
    expect(doc).toEqual({ _id: 1, hi: 5, lo: 5, seen: at, nested: { peak: 2 } });
  });

  it('declines what it does not cover', () => {
    expect(fastUpdate({ _id: 1, a: 1 }, { $max: { a: 'x' } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: 'x' }, { $max: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: 1 }, { $min: { a: new Date(0) } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: 1 }, { $max: { a: NaN } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: null }, { $min: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: undefined }, { $min: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: [1] }, { $set: { 'a.0': 2 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: [{ b: 1 }] }, { $set: { 'a.b': 2 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1, a: 's' }, { $inc: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1 }, { $set: { a: 1 }, $inc: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1 }, { $push: { a: 1 } })).toBeUndefined();
    expect(fastUpdate({ _id: 1 }, { $set: { __proto__x: 1, ['__proto__']: 1 } })).toBeUndefined();
  });

  it('gives the same result as the general path', () => {
    const doc = { _id: 'x', state: 'a', version: 4, nested: { k: 'v' } };
    const u = { $set: { state: 'b', 'nested.k': 'w' }, $inc: { version: 1 } };
    const general = applyUpdate(doc, parseUpdate({ ...u, $currentDate: {} }), {});
    expect(fastUpdate(doc, u)!.doc).toEqual(general);
  });

  it('projects plain inclusions and exclusions in document order', () => {
    const doc = { _id: 1, b: 2, a: 1, c: 3 };
    expect(Object.keys(compileFastProjection({ a: 1, b: 1 })!(doc))).toEqual(['_id', 'b', 'a']);
    expect(compileFastProjection({ _id: 0, c: true })!(doc)).toEqual({ c: 3 });
    expect(compileFastProjection({ b: 0 })!(doc)).toEqual({ _id: 1, a: 1, c: 3 });
    expect(compileFastProjection({ _id: 1 })!(doc)).toEqual({ _id: 1 });
    expect(compileFastProjection({ 'a.b': 1 })).toBeUndefined();
    expect(compileFastProjection({ a: { $slice: 1 } })).toBeUndefined();
    expect(compileFastProjection({ a: 1, b: 0 })).toBeUndefined();
  });
});

describe('bounded sort', () => {
  it('gives the page mingo gives (mixed types, missing fields, ties), and leaves other values to mingo', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
    const values = [
      1,
      2,
      2.5,
      -1,
      0,
      10,
      'a',
      'b',
      'B',
      '',
      new Date(1000),
      new Date(2000),
      null,
      true,
      false,
    ];
    const docs = Array.from({ length: 400 }, (_, i) => {
      const doc: Document = { _id: i };
      if (rnd() < 0.9) doc.a = pick(values);
      if (rnd() < 0.9) doc.b = pick([1, 2, 3, 'x', new Date(5)]);
      doc.n = { c: pick([1, 2, 3]) };
      return doc;
    });
    const sorts: Document[] = [{ a: 1 }, { a: -1 }, { b: 1, a: -1 }, { 'n.c': -1, _id: 1 }, { b: -1 }];
    for (const sort of sorts) {
      for (const [skip, limit] of [
        [0, 1],
        [0, 50],
        [30, 20],
        [0, 400],
        [390, 50],
      ]) {
        const reference = aggregate(docs, [{ $sort: sort }, { $skip: skip }, { $limit: limit }]);
        const page = topSorted(docs, sort, skip + limit)!.slice(skip, skip + limit);
        expect(page.map((d) => d._id)).toEqual(reference.map((d) => d._id));
      }
    }
    for (const odd of [[3, 1], [], { x: 1 }, Long.fromNumber(2), new ObjectId(), NaN, -0]) {
      expect(topSorted([...docs, { _id: 'odd', a: odd }], { a: 1 }, 10)).toBeUndefined();
    }
  });
});

describe('TTL sweeper', () => {
  it('deletes expired documents from memory', async () => {
    const store = new Store();
    await withBatch(store, (batch) => {
      const coll = batch.ensureCollection('db', 'ttl');
      batch.createIndex(coll, { v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 10 });
      batch.insert(coll, { _id: 'old', at: new Date(Date.now() - 60_000) });
      batch.insert(coll, { _id: 'older-in-array', at: ['not a date', new Date(Date.now() - 60_000)] });
      batch.insert(coll, { _id: 'new', at: new Date() });
      batch.insert(coll, { _id: 'none' });
    });
    expect(await sweepExpired(store)).toBe(2);
    expect([...store.collection('db', 'ttl')!.docs.values()].map((d) => d._id)).toEqual(['new', 'none']);
    expect(await sweepExpired(store)).toBe(0);
  });

  it('follows replacements, removals and index changes through its schedule', async () => {
    const store = new Store();
    const t0 = Date.now();
    const at = (offsetSec: number) => new Date(t0 + offsetSec * 1000);
    const coll = await withBatch(store, (batch) => {
      const c = batch.ensureCollection('db', 'ttl');
      batch.insert(c, { _id: 'before-index', at: at(-100) });
      batch.createIndex(c, { v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 10 });
      batch.insert(c, { _id: 'moved-later', at: at(-100) });
      batch.insert(c, { _id: 'moved-earlier', at: at(100) });
      batch.insert(c, { _id: 'removed', at: at(-100) });
      batch.insert(c, { _id: 'array', at: [at(100), at(-50)] });
      batch.insert(c, { _id: 'later', at: at(20) });
      return c;
    });
    await withBatch(store, (batch) => {
      batch.replace(coll, coll.docs.get(valueKey('moved-later'))!, { _id: 'moved-later', at: at(100) });
      batch.replace(coll, coll.docs.get(valueKey('moved-earlier'))!, { _id: 'moved-earlier', at: at(-100) });
      batch.remove(coll, coll.docs.get(valueKey('removed'))!);
    });
    const ids = () => [...coll.docs.values()].map((d) => d._id).sort();
    expect(await sweepExpired(store, t0)).toBe(3); // before-index, moved-earlier, array
    expect(ids()).toEqual(['later', 'moved-later']);
    expect(await sweepExpired(store, t0 + 29_000)).toBe(0);
    expect(await sweepExpired(store, t0 + 30_000)).toBe(1); // later: 20 s + 10 s
    expect(ids()).toEqual(['moved-later']);

    // A second TTL index with a shorter delay applies to the documents already there.
    await withBatch(store, (batch) =>
      batch.createIndex(coll, { v: 2, key: { at: 1 }, name: 'at_short', expireAfterSeconds: 1 }),
    );
    expect(await sweepExpired(store, t0 + 101_000)).toBe(1);
    expect(ids()).toEqual([]);
  });

  it('visits only the documents that are due, whatever the size of the collection', async () => {
    const store = new Store();
    const now = Date.now();
    await withBatch(store, (batch) => {
      const c = batch.ensureCollection('db', 'big');
      batch.createIndex(c, { v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 60 });
      for (let i = 0; i < 20_000; i++) batch.insert(c, { _id: i, at: new Date(now) });
      for (let i = 0; i < 3; i++) batch.insert(c, { _id: `old${i}`, at: new Date(now - 120_000) });
    });
    const checks = jest.spyOn(Collection.prototype, 'isExpired');
    try {
      expect(await sweepExpired(store, now)).toBe(3);
      expect(checks.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      checks.mockRestore();
    }
  });
});

describe('query planning', () => {
  it('answers _id and unique-index equality from hash maps, not by scanning', async () => {
    const store = new Store();
    await withBatch(store, (batch) => {
      const coll = batch.ensureCollection('db', 'users');
      batch.createIndex(coll, { v: 2, key: { email: 1 }, name: 'email_1', unique: true });
      batch.createIndex(coll, { v: 2, key: { org: 1, login: 1 }, name: 'org_login', unique: true });
      batch.createIndex(coll, { v: 2, key: { nick: 1 }, name: 'nick_1', unique: true, sparse: true });
      for (let i = 0; i < 20_000; i++)
        batch.insert(coll, { _id: i, email: `u${i}@x`, org: `o${i % 7}`, login: `l${i}`, nick: `n${i}` });
    });
    const coll = store.collection('db', 'users')!;
    const candidates = (filter: Document) => [...matcher(coll, filter).candidates()].length;
    expect(candidates({ _id: 123 })).toBe(1);
    expect(candidates({ _id: { $in: [1, 2, 99999] } })).toBe(2);
    expect(candidates({ _id: 5, email: 'wrong' })).toBe(1);
    expect(candidates({ email: 'u77@x' })).toBe(1);
    expect(candidates({ email: { $eq: 'u77@x' }, org: 'o0' })).toBe(1);
    expect(candidates({ login: 'l8', org: 'o1' })).toBe(1);
    expect(candidates({ email: 'nobody' })).toBe(0);
    // Not answerable from a complete unique index: the documents holding the leading field's value.
    expect(candidates({ org: 'o1' })).toBe(2857);
    expect(candidates({ nick: 'n1' })).toBe(1); // sparse: its own map misses documents, the bucket does not
    expect(candidates({ login: 'l8' })).toBe(20_000); // not a leading field: scans
    expect([...matcher(coll, { email: 'u77@x', org: 'o3' }).matches()]).toEqual([]);
    expect([...matcher(coll, { email: 'u77@x', org: 'o0' }).matches()].map((d) => d._id)).toEqual([77]);
    expect([...matcher(coll, { login: 'l8', org: 'o1' }).matches()].map((d) => d._id)).toEqual([8]);
  });

  it('narrows equality on the leading field of a non-unique index to the documents holding it', async () => {
    const store = new Store();
    const t0 = Date.now();
    const ids = (m: Iterable<Document>) => [...m].map((d) => d._id);
    // The same documents with and without indexes: the indexed answers must equal the scans.
    const [indexed, plain] = await withBatch(store, (batch) => {
      const a = batch.ensureCollection('db', 'records');
      const b = batch.ensureCollection('db', 'plain');
      batch.createIndex(a, { v: 2, key: { agentId: 1, at: -1 }, name: 'agent_at' });
      batch.createIndex(a, { v: 2, key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 3600 });
      batch.createIndex(a, { v: 2, key: { 'tags.name': 1 }, name: 'tags' });
      for (let i = 0; i < 3000; i++) {
        const doc = {
          _id: i,
          agentId: i % 3 === 0 ? `a${i % 30}` : i % 30, // strings and numbers
          at: new Date(t0 + i),
          tags: i % 2 ? [{ name: 't1' }, { name: `t${i % 5}` }] : [],
        };
        batch.insert(a, doc);
        batch.insert(b, doc);
      }
      return [a, b];
    });
    expect([...indexed.buckets.keys()].sort()).toEqual(['agentId', 'tags.name']); // no bucket per date
    // Without a sort, documents of several buckets ($in) come bucket by bucket (as mongod returns
    // them in index order): compare the sets.
    const sorted = (xs: unknown[]) => [...xs].sort((x, y) => String(x).localeCompare(String(y)));
    const same = (filter: Document, visited: number) => {
      expect([...matcher(indexed, filter).candidates()]).toHaveLength(visited);
      expect(sorted(ids(matcher(indexed, filter).matches()))).toEqual(
        sorted(ids(matcher(plain, filter).matches())),
      );
    };
    same({ agentId: 'a3' }, 100);
    same({ agentId: 4 }, 100);
    same({ agentId: 4.0, at: { $gt: new Date(t0 + 1000) } }, 100);
    same({ agentId: { $in: ['a3', 4, 'nobody'] } }, 200);
    same({ agentId: 'nobody' }, 0);
    same({ 'tags.name': 't1' }, 1500);
    same({ 'tags.name': 't1', agentId: 1 }, 100); // the smaller bucket
    same({ agentId: { $gt: 'a' } }, 3000); // not an equality: scans

    // Writes keep the buckets: a value changed, a document removed, an index dropped.
    await withBatch(store, (batch) => {
      for (const c of [indexed, plain]) {
        batch.replace(c, c.docs.get(valueKey(4))!, { ...c.docs.get(valueKey(4))!, agentId: 'moved' });
        batch.remove(c, c.docs.get(valueKey(34))!);
      }
    });
    same({ agentId: 4 }, 98);
    same({ agentId: 'moved' }, 1);
    await withBatch(store, (batch) => batch.dropIndex(indexed, 'agent_at'));
    expect([...indexed.buckets.keys()]).toEqual(['tags.name']);
    same({ agentId: 'moved' }, 2999);
  });
});
