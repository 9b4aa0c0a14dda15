import { describeEachCache, sleep } from './cache-factories';

describeEachCache('cache port', (subject) => {
  const cache = () => subject().cache;

  describe('get / set / delete', () => {
    it('stores and reads strings; missing keys are null', async () => {
      expect(await cache().set('gs:a', '{"n":1}')).toBe(true);
      expect(await cache().get('gs:a')).toBe('{"n":1}');
      expect(await cache().get('gs:missing')).toBeNull();
      expect(await cache().set('gs:a', 'two')).toBe(true);
      expect(await cache().get('gs:a')).toBe('two');
      expect(await cache().set('gs:empty', '')).toBe(true);
      expect(await cache().get('gs:empty')).toBe('');
    });

    it('expires a key after its TTL, for real', async () => {
      await cache().set('ttl:short', 'v', { ttlMs: 80 });
      expect(await cache().get('ttl:short')).toBe('v');
      await sleep(150);
      expect(await cache().get('ttl:short')).toBeNull();
      expect(await cache().ttl('ttl:short')).toBeNull();
      expect(await cache().list('ttl:short')).toEqual([]);
    });

    it('set replaces the TTL: without ttlMs the key no longer expires', async () => {
      await cache().set('ttl:replace', 'a', { ttlMs: 80 });
      await cache().set('ttl:replace', 'b');
      expect(await cache().ttl('ttl:replace')).toBeNull();
      await sleep(120);
      expect(await cache().get('ttl:replace')).toBe('b');
    });

    it('onlyIfAbsent writes once, and again once the key expired', async () => {
      expect(await cache().set('nx:a', 'first', { onlyIfAbsent: true, ttlMs: 80 })).toBe(true);
      expect(await cache().set('nx:a', 'second', { onlyIfAbsent: true })).toBe(false);
      expect(await cache().get('nx:a')).toBe('first');
      await sleep(130);
      expect(await cache().set('nx:a', 'third', { onlyIfAbsent: true })).toBe(true);
      expect(await cache().get('nx:a')).toBe('third');
    });

    it('delete says whether a key was removed', async () => {
      await cache().set('del:a', 'x');
      expect(await cache().delete('del:a')).toBe(true);
      expect(await cache().delete('del:a')).toBe(false);
      expect(await cache().get('del:a')).toBeNull();
    });

    it('mget returns values in key order with nulls for missing keys', async () => {
      await cache().set('mget:a', '1');
      await cache().set('mget:c', '3');
      expect(await cache().mget(['mget:a', 'mget:b', 'mget:c'])).toEqual(['1', null, '3']);
      expect(await cache().mget([])).toEqual([]);
    });

    it('refuses a TTL that is not a positive number', async () => {
      await expect(cache().set('bad:ttl', 'x', { ttlMs: 0 })).rejects.toMatchObject({
        code: 'INTERNAL_ERROR',
      });
      await expect(cache().expire('bad:ttl', -5)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
      expect(await cache().get('bad:ttl')).toBeNull();
    });
  });

  describe('incr', () => {
    it('counts from 0, by any integer', async () => {
      expect(await cache().incr('incr:a')).toBe(1);
      expect(await cache().incr('incr:a', 5)).toBe(6);
      expect(await cache().incr('incr:a', -10)).toBe(-4);
      expect(await cache().get('incr:a')).toBe('-4');
    });

    it('is atomic: 200 concurrent increments give 200', async () => {
      const results = await Promise.all(Array.from({ length: 200 }, () => cache().incr('incr:concurrent')));
      expect(await cache().get('incr:concurrent')).toBe('200');
      expect(new Set(results).size).toBe(200);
    });

    it('sets the TTL only when it creates the key', async () => {
      expect(await cache().incr('incr:window', 1, { ttlMs: 300 })).toBe(1);
      await sleep(120);
      expect(await cache().incr('incr:window', 1, { ttlMs: 300 })).toBe(2);
      const left = await cache().ttl('incr:window');
      expect(left).not.toBeNull();
      expect(left as number).toBeLessThanOrEqual(200);
      await sleep((left as number) + 50);
      expect(await cache().get('incr:window')).toBeNull();
      expect(await cache().incr('incr:window', 1, { ttlMs: 300 })).toBe(1);
    });

    it('keeps the TTL of an existing key and does not add one to a persistent key', async () => {
      await cache().set('incr:persistent', '10');
      expect(await cache().incr('incr:persistent', 1, { ttlMs: 100 })).toBe(11);
      expect(await cache().ttl('incr:persistent')).toBeNull();
    });

    it('refuses a value that is not an integer, and a fractional step', async () => {
      await cache().set('incr:text', 'hello');
      await expect(cache().incr('incr:text')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
      expect(await cache().get('incr:text')).toBe('hello');
      await expect(cache().incr('incr:frac', 1.5)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    });

    it('with an operation id (once), adds at most once per id and key and answers the first value again', async () => {
      const first = { once: 'op-1', onceTtlMs: 5000 };
      expect(await cache().incr('once:a', 2, first)).toBe(2);
      expect(await cache().incr('once:a', 2, first)).toBe(2);
      expect(await cache().get('once:a')).toBe('2');
      expect(await cache().incr('once:a', 2, { once: 'op-2', onceTtlMs: 5000 })).toBe(4);
      // The same id on another key is another operation.
      expect(await cache().incr('once:b', 1, first)).toBe(1);
      // Without an id, every call adds.
      expect(await cache().incr('once:a')).toBe(5);
      expect(await cache().incr('once:a', 2, first)).toBe(2);
      // The marks live beside no key of the caller's.
      expect(await cache().list('once:')).toEqual(['once:a', 'once:b']);
    });

    it('concurrent runs of one operation add once, and all answer the same value', async () => {
      const op = { once: 'op-concurrent', onceTtlMs: 5000 };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => cache().incr('once:concurrent', 3, op)),
      );
      expect(new Set(results)).toEqual(new Set([3]));
      expect(await cache().get('once:concurrent')).toBe('3');
    });
  });

  describe('expire / ttl', () => {
    it('expire gives a TTL to an existing key only', async () => {
      expect(await cache().expire('exp:missing', 1000)).toBe(false);
      await cache().set('exp:a', 'x');
      expect(await cache().expire('exp:a', 80)).toBe(true);
      expect(await cache().get('exp:a')).toBe('x');
      await sleep(130);
      expect(await cache().get('exp:a')).toBeNull();
    });

    it('ttl is ms left, and null for a missing key or a key without TTL', async () => {
      expect(await cache().ttl('ttlq:missing')).toBeNull();
      await cache().set('ttlq:forever', 'x');
      expect(await cache().ttl('ttlq:forever')).toBeNull();
      await cache().set('ttlq:timed', 'x', { ttlMs: 5000 });
      const left = (await cache().ttl('ttlq:timed')) as number;
      expect(left).toBeGreaterThan(4000);
      expect(left).toBeLessThanOrEqual(5000);
    });
  });

  describe('list', () => {
    it('lists keys by prefix, sorted, within the limit', async () => {
      await Promise.all(['list:b', 'list:a', 'list:c', 'lisx:d'].map((k) => cache().set(k, '1')));
      expect(await cache().list('list:')).toEqual(['list:a', 'list:b', 'list:c']);
      const two = await cache().list('list:', { limit: 2 });
      expect(two).toHaveLength(2);
      two.forEach((k) => expect(k.startsWith('list:')).toBe(true));
      expect(await cache().list('nothing-here:')).toEqual([]);
    });

    it('treats glob characters in the prefix literally', async () => {
      const literal = ['g*[x]?\\:1', 'g*[x]?\\:2'];
      const lookalikes = ['gA[x]?\\:3', 'g*x?\\:4', 'g*[x]Z\\:5', 'g*[y]?\\:6', 'g*[x]?Q:7'];
      await Promise.all([...literal, ...lookalikes].map((k) => cache().set(k, '1')));
      expect(await cache().list('g*[x]?\\')).toEqual(literal);
      expect(await cache().list('g*')).toHaveLength(6);
    });

    it('lists many keys across SCAN pages', async () => {
      await Promise.all(
        Array.from({ length: 1500 }, (_, i) => cache().set(`many:${i}`, '1', { ttlMs: 60_000 })),
      );
      expect(await cache().list('many:', { limit: 2000 })).toHaveLength(1500);
      expect(await cache().list('many:', { limit: 1200 })).toHaveLength(1200);
    });
  });

  describe('take', () => {
    it('gets and deletes in one step', async () => {
      await cache().set('take:a', 'token');
      expect(await cache().take('take:a')).toBe('token');
      expect(await cache().take('take:a')).toBeNull();
      expect(await cache().get('take:a')).toBeNull();
    });

    it('gives the value to exactly one of 100 concurrent takers', async () => {
      await cache().set('take:race', 'once');
      const results = await Promise.all(Array.from({ length: 100 }, () => cache().take('take:race')));
      expect(results.filter((r) => r === 'once')).toHaveLength(1);
      expect(results.filter((r) => r === null)).toHaveLength(99);
    });
  });

  describe('namespace', () => {
    it('prefixes keys, strips the prefix when listing, and nests', async () => {
      const agent = cache().namespace('agent:abc:');
      const notes = agent.namespace('notes:');
      await agent.set('k1', 'v1');
      await notes.set('n1', 'x');
      expect(await cache().get('agent:abc:k1')).toBe('v1');
      expect(await cache().get('agent:abc:notes:n1')).toBe('x');
      expect(await agent.list('')).toEqual(['k1', 'notes:n1']);
      expect(await notes.list('')).toEqual(['n1']);
      expect(await cache().namespace('agent:other:').get('k1')).toBeNull();
      expect(await notes.take('n1')).toBe('x');
      expect(agent.kind).toBe(cache().kind);
      await agent.close(); // a view does not own the connection
      expect(await agent.get('k1')).toBe('v1');
    });
  });

  it('reports itself up', async () => {
    expect(await cache().status()).toMatchObject({ state: 'up' });
  });
});
