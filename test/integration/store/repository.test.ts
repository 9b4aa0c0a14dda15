import { z } from 'zod';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { describeEachDocumentStore } from './document-targets';

const Task = z.object({
  _id: z.string(),
  version: z.number().int().nonnegative(),
  status: z.enum(['queued', 'running', 'done']),
  owner: z.string(),
  attempts: z.number().int().default(0),
  note: z.string().optional(),
});

const tasks = defineCollection({ name: 'repo_tasks', schema: Task });

describeEachDocumentStore('repository', (store) => {
  const repo = () => store().repository(tasks);
  const task = (id: string, extra: Partial<z.input<typeof Task>> = {}) => ({
    _id: id,
    version: 0,
    status: 'queued' as const,
    owner: 'alice',
    ...extra,
  });

  it('inserts validated documents (defaults applied) and reads them back', async () => {
    const stored = await repo().insert(task('t1'));
    expect(stored).toEqual({ _id: 't1', version: 0, status: 'queued', owner: 'alice', attempts: 0 });
    expect(await repo().findById('t1')).toEqual(stored);
    expect(await repo().findById('missing')).toBeNull();
    await expect(repo().getById('missing')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { collection: 'repo_tasks', id: 'missing' },
    });
  });

  it('refuses to insert a document that does not match the schema', async () => {
    const bad = { ...task('t-bad'), status: 'exploded' } as unknown as z.input<typeof Task>;
    await expect(repo().insert(bad)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(await repo().raw.countDocuments({ _id: 't-bad' })).toBe(0);
  });

  it('a corrupt document is an INTERNAL_ERROR naming the collection and id, at the read', async () => {
    await repo().raw.insertOne({
      _id: 'corrupt-1',
      version: 'seven',
      status: 'queued',
      owner: 'x',
      attempts: 0,
    } as never);
    const err = await repo()
      .findById('corrupt-1')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringContaining('repo_tasks'),
      details: { collection: 'repo_tasks', id: 'corrupt-1', issues: [{ path: 'version' }] },
    });
    expect((err as Error).message).toContain('corrupt-1');
    await expect(repo().find({ owner: 'x' })).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    await repo().raw.deleteOne({ _id: 'corrupt-1' });
  });

  it('finds with filter, sort, skip and limit, and counts', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        repo().insert(task(`f${String(i).padStart(2, '0')}`, { owner: 'finder', attempts: i })),
      ),
    );
    const page = await repo().find({ owner: 'finder' }, { sort: { attempts: -1 }, skip: 2, limit: 3 });
    expect(page.map((t) => t._id)).toEqual(['f09', 'f08', 'f07']);
    expect(await repo().count({ owner: 'finder' })).toBe(12);
    expect(await repo().count({ owner: 'finder', attempts: { $gte: 10 } })).toBe(2);
    expect((await repo().findOne({ owner: 'finder' }, { sort: { attempts: 1 } }))?._id).toBe('f00');
    expect(await repo().find({ owner: 'finder' }, { limit: 0 })).toHaveLength(12);
  });

  it('updates, returns the document after an atomic update, and deletes', async () => {
    await repo().insert(task('u1', { owner: 'upd' }));
    expect(await repo().updateOne({ _id: 'u1' }, { $set: { note: 'hello' } })).toEqual({
      matched: 1,
      modified: 1,
      upsertedId: null,
    });
    const after = await repo().findOneAndUpdate({ _id: 'u1' }, { $inc: { attempts: 2 } });
    expect(after).toMatchObject({ note: 'hello', attempts: 2 });
    expect(await repo().findOneAndUpdate({ _id: 'nope' }, { $inc: { attempts: 1 } })).toBeNull();
    expect(await repo().deleteById('u1')).toBe(true);
    expect(await repo().deleteById('u1')).toBe(false);
    await repo().insert(task('u2', { owner: 'gone' }));
    await repo().insert(task('u3', { owner: 'gone' }));
    expect(await repo().deleteMany({ owner: 'gone' })).toBe(2);
  });

  it('insertIfAbsent inserts once and then reports false (idempotent creation)', async () => {
    expect(await repo().insertIfAbsent(task('once'))).toBe(true);
    expect(await repo().insertIfAbsent(task('once', { owner: 'someone-else' }))).toBe(false);
    expect((await repo().getById('once')).owner).toBe('alice');
  });

  it('hands out one repository per collection and refuses a second definition of it', () => {
    expect(store().repository(tasks)).toBe(repo());
    const clash = defineCollection({ name: 'repo_tasks', schema: Task });
    expect(() => store().repository(clash)).toThrow(/defined twice/);
  });

  it('reports itself up', async () => {
    expect(await store().status()).toMatchObject({ state: 'up' });
  });
});
