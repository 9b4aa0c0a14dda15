import { MemoryDedupeStore } from '../../../src/kernel';

describe('MemoryDedupeStore', () => {
  let now = 1_000;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000;
  });

  it('claims an unknown id once; others see it pending, then done with its reply', async () => {
    const store = new MemoryDedupeStore({ now: clock });
    await expect(store.claim('a', 'n1', 1000)).resolves.toBeUndefined();
    await expect(store.claim('a', 'n2', 1000)).resolves.toEqual({ state: 'pending', owner: 'n1' });
    await store.complete('a', { kind: 'reply', value: 42 });
    await expect(store.claim('a', 'n2', 1000)).resolves.toEqual({
      state: 'done',
      reply: { kind: 'reply', value: 42 },
    });
    await expect(store.get('a')).resolves.toEqual({ state: 'done', reply: { kind: 'reply', value: 42 } });
    await store.complete('b', undefined);
    await expect(store.get('b')).resolves.toEqual({ state: 'done' });
  });

  it('lets a released or lapsed claim be claimed again', async () => {
    const store = new MemoryDedupeStore({ now: clock });
    await store.claim('a', 'n1', 100);
    await store.release('a');
    await expect(store.claim('a', 'n2', 100)).resolves.toBeUndefined();
    now += 100; // n2's lease is over (it crashed)
    await expect(store.claim('a', 'n3', 100)).resolves.toBeUndefined();
  });

  it('forgets handled ids after the TTL', async () => {
    const store = new MemoryDedupeStore({ now: clock, ttlMs: 500 });
    await store.complete('a', { kind: 'reply', value: 1 });
    now += 499;
    await expect(store.get('a')).resolves.toBeDefined();
    now += 1;
    await expect(store.get('a')).resolves.toBeUndefined();
    await store.complete('b', undefined);
    now += 1000;
    await store.complete('c', undefined); // the generation holding b is old: it goes
    await store.complete('d', undefined);
    expect(store.size).toBeLessThanOrEqual(2);
    await expect(store.get('b')).resolves.toBeUndefined();
  });

  it('holds at most maxEntries ids, keeping the recently used ones', async () => {
    const store = new MemoryDedupeStore({ now: clock, maxEntries: 4 });
    await store.complete('a', undefined);
    await store.complete('b', undefined);
    await store.complete('c', undefined);
    await expect(store.get('a')).resolves.toBeDefined(); // used again: kept
    await store.complete('d', undefined);
    expect(store.size).toBeLessThanOrEqual(4);
    await expect(store.get('b')).resolves.toBeUndefined(); // least recently used: forgotten
    for (const id of ['a', 'd']) await expect(store.get(id)).resolves.toBeDefined();
    for (let i = 0; i < 100; i++) await store.complete(`x${i}`, undefined);
    expect(store.size).toBeLessThanOrEqual(4);
    await expect(store.get('x99')).resolves.toBeDefined();
    await expect(store.get('x98')).resolves.toBeDefined();
  });
});
