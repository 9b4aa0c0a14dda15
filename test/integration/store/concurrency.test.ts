import { z } from 'zod';
import { isAppError, type AppError } from '../../../schemas/errors';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { describeEachDocumentStore } from './document-targets';

const Run = z.object({
  _id: z.string(),
  version: z.number().int(),
  status: z.enum(['queued', 'running', 'paused', 'done', 'failed']),
  counter: z.number().int().default(0),
  lease: z.string().optional(),
  email: z.string().optional(),
  tenant: z.string().default('t'),
  slug: z.string().optional(),
});

const runs = defineCollection({
  name: 'conc_runs',
  schema: Run,
  indexes: [
    {
      key: { email: 1 },
      name: 'email_1',
      unique: true,
      partialFilterExpression: { email: { $type: 'string' } },
    },
    {
      key: { tenant: 1, slug: 1 },
      name: 'tenant_1_slug_1',
      unique: true,
      partialFilterExpression: { slug: { $type: 'string' } },
    },
  ],
});

describeEachDocumentStore('optimistic concurrency', (store) => {
  const repo = () => store().repository(runs);
  const fresh = (id: string, status: z.infer<typeof Run>['status'] = 'queued') =>
    repo().insert({ _id: id, version: 0, status });

  beforeAll(async () => {
    await store().ensureIndexes([runs]);
  });

  describe('updateIfVersion', () => {
    it('applies the update and bumps the version', async () => {
      await fresh('v1');
      const next = await repo().updateIfVersion('v1', 0, { $set: { lease: 'w1' }, $inc: { counter: 5 } });
      expect(next).toMatchObject({ version: 1, lease: 'w1', counter: 5 });
      expect(await repo().updateIfVersion('v1', 1, { $unset: { lease: '' } })).toMatchObject({ version: 2 });
    });

    it('50 parallel writers with the same expected version: exactly 1 wins, 49 get CONFLICT', async () => {
      await fresh('race');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => repo().updateIfVersion('race', 0, { $set: { lease: `w${i}` } })),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes
        .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
        .map((o) => o.reason as AppError);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const err of lost) {
        expect(isAppError(err)).toBe(true);
        expect(err).toMatchObject({
          code: 'CONFLICT',
          status: 409,
          details: {
            collection: 'conc_runs',
            id: 'race',
            expectedVersion: 0,
            currentVersion: 1,
            currentState: 'queued',
          },
        });
      }
      const winner = (won[0] as PromiseFulfilledResult<z.infer<typeof Run>>).value;
      expect(await repo().getById('race')).toEqual(winner);
      expect(winner.version).toBe(1);
    });

    it('a missing document is NOT_FOUND', async () => {
      await expect(repo().updateIfVersion('ghost', 0, { $set: { lease: 'x' } })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('refuses updates that manage version themselves', async () => {
      await fresh('v-own');
      await expect(repo().updateIfVersion('v-own', 0, { $set: { version: 9 } })).rejects.toMatchObject({
        code: 'INTERNAL_ERROR',
      });
      await expect(repo().updateIfVersion('v-own', 0, { $inc: { version: 1 } })).rejects.toThrow(/managed/);
      expect((await repo().getById('v-own')).version).toBe(0);
    });
  });

  describe('transition', () => {
    it('moves between allowed states atomically, with set and unset', async () => {
      await fresh('t1');
      const running = await repo().transition('t1', {
        from: ['queued'],
        to: 'running',
        set: { lease: 'node-a' },
      });
      expect(running).toMatchObject({ status: 'running', lease: 'node-a', version: 1 });
      const paused = await repo().transition('t1', { from: ['running'], to: 'paused', unset: ['lease'] });
      expect(paused.lease).toBeUndefined();
      expect(paused).toMatchObject({ status: 'paused', version: 2 });
    });

    it('from a state outside `from` is CONFLICT carrying the current state', async () => {
      await fresh('t2', 'done');
      await expect(
        repo().transition('t2', { from: ['queued', 'paused'], to: 'running' }),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining('is done'),
        details: { currentState: 'done', from: ['queued', 'paused'], to: 'running', currentVersion: 0 },
      });
      expect((await repo().getById('t2')).status).toBe('done');
    });

    it('a missing document is NOT_FOUND', async () => {
      await expect(repo().transition('nobody', { from: ['queued'], to: 'running' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        details: { collection: 'conc_runs', id: 'nobody' },
      });
    });

    it('with expectedVersion, a stale version is CONFLICT even from an allowed state', async () => {
      await fresh('t3');
      await repo().updateIfVersion('t3', 0, { $inc: { counter: 1 } });
      await expect(
        repo().transition('t3', { from: ['queued'], to: 'running', expectedVersion: 0 }),
      ).rejects.toMatchObject({ code: 'CONFLICT', details: { expectedVersion: 0, currentVersion: 1 } });
      expect(
        await repo().transition('t3', { from: ['queued'], to: 'running', expectedVersion: 1 }),
      ).toMatchObject({
        status: 'running',
        version: 2,
      });
    });

    it('of 20 concurrent identical transitions exactly one applies', async () => {
      await fresh('t4');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => repo().transition('t4', { from: ['queued'], to: 'running' })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect((await repo().getById('t4')).version).toBe(1);
    });
  });

  describe('insertUnique', () => {
    it('maps a duplicate _id to CONFLICT naming _id', async () => {
      await fresh('dup');
      await expect(repo().insertUnique({ _id: 'dup', version: 0, status: 'queued' })).rejects.toMatchObject({
        code: 'CONFLICT',
        details: { collection: 'conc_runs', fields: ['_id'] },
      });
    });

    it('maps a unique index clash to CONFLICT naming the field(s), without the value', async () => {
      await repo().insertUnique({ _id: 'e1', version: 0, status: 'queued', email: 'ann@example.com' });
      const err = await repo()
        .insertUnique({ _id: 'e2', version: 0, status: 'queued', email: 'ann@example.com' })
        .catch((e: AppError) => e);
      expect(err).toMatchObject({
        code: 'CONFLICT',
        message: 'duplicate email in conc_runs',
        details: { fields: ['email'] },
      });
      expect(JSON.stringify((err as AppError).toBody())).not.toContain('ann@example.com');

      await repo().insertUnique({ _id: 's1', version: 0, status: 'queued', tenant: 'acme', slug: 'x' });
      await expect(
        repo().insertUnique({ _id: 's2', version: 0, status: 'queued', tenant: 'acme', slug: 'x' }),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
        details: { fields: ['tenant', 'slug'], index: 'tenant_1_slug_1' },
      });
    });

    it('a unique clash through updateOne is CONFLICT too', async () => {
      await repo().insert({ _id: 'e3', version: 0, status: 'queued', email: 'bob@example.com' });
      await expect(
        repo().updateOne({ _id: 'e3' }, { $set: { email: 'ann@example.com' } }),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
        details: { fields: ['email'] },
      });
    });
  });
});
