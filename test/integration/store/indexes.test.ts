import { z } from 'zod';
import type { AppError } from '../../../schemas/errors';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { describeEachDocumentStore } from './document-targets';

const Doc = z.object({
  _id: z.string(),
  email: z.string().optional(),
  at: z.date().optional(),
  n: z.number().optional(),
});

const users = defineCollection({
  name: 'idx_users',
  schema: Doc,
  indexes: [
    { key: { email: 1 }, name: 'email_1', unique: true },
    { key: { n: -1, email: 1 } }, // unnamed: gets MongoDB's default name
  ],
});
const sessions = defineCollection({
  name: 'idx_sessions',
  schema: Doc,
  indexes: [{ key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 3600 }],
});

describeEachDocumentStore('ensureIndexes', (store) => {
  it('creates every declared index once; a second run changes nothing', async () => {
    store().repository(users);
    const first = await store().ensureIndexes([sessions]);
    expect(first).toEqual([
      { collection: 'idx_users', created: ['email_1', 'n_-1_email_1'], unchanged: [] },
      { collection: 'idx_sessions', created: ['at_ttl'], unchanged: [] },
    ]);
    const second = await store().ensureIndexes([sessions]);
    expect(second).toEqual([
      { collection: 'idx_users', created: [], unchanged: ['email_1', 'n_-1_email_1'] },
      { collection: 'idx_sessions', created: [], unchanged: ['at_ttl'] },
    ]);
    const names = (await store().db.collection('idx_users').listIndexes().toArray())
      .map((i) => i.name)
      .sort();
    expect(names).toEqual(['_id_', 'email_1', 'n_-1_email_1']);
    const ttl = (await store().db.collection('idx_sessions').listIndexes().toArray()).find(
      (i) => i.name === 'at_ttl',
    );
    expect(ttl?.expireAfterSeconds).toBe(3600);
  });

  it('reports a changed spec clearly and leaves the existing index alone', async () => {
    const changed = defineCollection({
      name: 'idx_users',
      schema: Doc,
      indexes: [
        { key: { email: 1 }, name: 'email_1' }, // no longer unique
        { key: { n: -1, email: 1 }, name: 'renamed' }, // same key, other name
      ],
    });
    const sessionsLonger = defineCollection({
      name: 'idx_sessions',
      schema: Doc,
      indexes: [{ key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 60 }],
    });
    const err = (await store()
      .ensureIndexes([changed, sessionsLonger])
      .catch((e: unknown) => e)) as AppError;
    expect(err).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(err.message).toContain('idx_users.email_1: exists with a different spec');
    expect(err.message).toContain('idx_users.renamed: same key exists as index n_-1_email_1');
    expect(err.message).toContain('idx_sessions.at_ttl');
    expect(err.details.conflicts).toHaveLength(3);
    const email = (await store().db.collection('idx_users').listIndexes().toArray()).find(
      (i) => i.name === 'email_1',
    );
    expect(email?.unique).toBe(true);
  });

  it('creating indexes on an empty database, in parallel from two "processes", is harmless', async () => {
    const defs = [
      defineCollection({ name: 'idx_parallel', schema: Doc, indexes: [{ key: { n: 1 }, name: 'n_1' }] }),
    ];
    const [a, b] = await Promise.all([store().ensureIndexes(defs), store().ensureIndexes(defs)]);
    const idx = (r: typeof a) => r.find((x) => x.collection === 'idx_parallel');
    expect([
      ...(idx(a)?.created ?? []),
      ...(idx(b)?.created ?? []),
      ...(idx(a)?.unchanged ?? []),
      ...(idx(b)?.unchanged ?? []),
    ]).toContain('n_1');
  });
});
