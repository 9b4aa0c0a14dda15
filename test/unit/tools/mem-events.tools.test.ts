import { eventsTools } from '../../../actors/tools/events/events.tools';
import { memTools } from '../../../actors/tools/mem/mem.tools';
import type { AnyToolDeclaration, ToolContext } from '../../../actors/tools/router/tool-declaration';
import { parseToolInput } from '../../../actors/tools/router/tool-input';
import type { Services } from '../../../src/boot/services';
import { silentLogger } from '../../../src/logging/logger';
import { MemoryCache } from '../../../src/store/cache';

const tools = new Map<string, AnyToolDeclaration>([...memTools, ...eventsTools].map((t) => [t.name, t]));
const cache = new MemoryCache();
const broadcasts: Array<{ type: string; body: unknown }> = [];
const services = {
  cache,
  system: { broadcast: async (type: string, body: unknown) => void broadcasts.push({ type, body }) },
} as unknown as Services;

const ctxOf = (agentId: string, accountId?: string): ToolContext => ({
  principal: { subjectType: 'agent', agentId, via: 'bearer' },
  agent: {
    id: agentId,
    agentRef: `agref-${agentId}`,
    allowedDomains: [],
    ...(accountId ? { accountId } : {}),
  },
  services,
  signal: new AbortController().signal,
  logger: silentLogger,
});

/** Validates like the router, then runs. */
const run = async (name: string, input: Record<string, unknown>, ctx: ToolContext) => {
  const tool = tools.get(name)!;
  return tool.run(parseToolInput(name, tool.input, input), ctx);
};

afterAll(() => cache.close());

describe('memory cache tools', () => {
  const a = ctxOf('agt_a');
  const b = ctxOf('agt_b');

  it('set / get / delete with JSON values; a missing key is {value: null, found: false}', async () => {
    await expect(run('mem_set', { key: 'notes/today', value: { n: [1, 'x', null] } }, a)).resolves.toBe(true);
    await expect(run('mem_get', { key: 'notes/today' }, a)).resolves.toEqual({
      value: { n: [1, 'x', null] },
      found: true,
    });
    await expect(run('mem_set', { key: 'nothing', value: null }, a)).resolves.toBe(true);
    await expect(run('mem_get', { key: 'nothing' }, a)).resolves.toEqual({ value: null, found: true });
    await expect(run('mem_get', { key: 'missing' }, a)).resolves.toEqual({ value: null, found: false });
    await expect(run('mem_delete', { key: 'notes/today' }, a)).resolves.toEqual({ deleted: true });
    await expect(run('mem_delete', { key: 'notes/today' }, a)).resolves.toEqual({ deleted: false });
  });

  it('keeps agents apart', async () => {
    await run('mem_set', { key: 'secret-plan', value: 'a' }, a);
    await expect(run('mem_get', { key: 'secret-plan' }, b)).resolves.toEqual({ value: null, found: false });
    await expect(run('mem_list', {}, b)).resolves.toEqual({ keys: [], truncated: false });
  });

  it('applies the ttl in seconds (default 7 days) and mem_expire changes it', async () => {
    await run('mem_set', { key: 't1', value: 1 }, a);
    const ns = cache.namespace('tools:mem:agt_a:');
    expect(await ns.ttl('t1')).toBeGreaterThan(7 * 24 * 3600 * 1000 - 5000);
    await run('mem_set', { key: 't2', value: 1, ttl: 3600 }, a);
    expect(await ns.ttl('t2')).toBeLessThanOrEqual(3600 * 1000);
    await expect(run('mem_expire', { key: 't2', ttl: 60 }, a)).resolves.toEqual({ updated: true });
    expect(await ns.ttl('t2')).toBeLessThanOrEqual(60_000);
    await expect(run('mem_expire', { key: 'ghost', ttl: 60 }, a)).resolves.toEqual({ updated: false });
  });

  it('mem_incr counts atomically from 0, and refuses a value that is not an integer (409)', async () => {
    await expect(run('mem_incr', { key: 'hits' }, a)).resolves.toEqual({ value: 1 });
    await expect(run('mem_incr', { key: 'hits', by: 10 }, a)).resolves.toEqual({ value: 11 });
    await expect(run('mem_incr', { key: 'hits', by: -1 }, a)).resolves.toEqual({ value: 10 });
    await expect(run('mem_get', { key: 'hits' }, a)).resolves.toEqual({ value: 10, found: true });
    await run('mem_set', { key: 'word', value: 'hello' }, a);
    await expect(run('mem_incr', { key: 'word' }, a)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('mem_list lists sorted keys under a prefix, with truncation', async () => {
    const c = ctxOf('agt_c');
    for (const k of ['p/3', 'p/1', 'p/2', 'q/1']) await run('mem_set', { key: k, value: k }, c);
    await expect(run('mem_list', { prefix: 'p/' }, c)).resolves.toEqual({
      keys: ['p/1', 'p/2', 'p/3'],
      truncated: false,
    });
    await expect(run('mem_list', { prefix: 'p/', limit: 2 }, c)).resolves.toEqual({
      keys: ['p/1', 'p/2'],
      truncated: true,
    });
    await expect(run('mem_list', {}, c)).resolves.toMatchObject({ keys: ['p/1', 'p/2', 'p/3', 'q/1'] });
  });

  it('validates keys, ttl and value size', async () => {
    await expect(run('mem_set', { key: 'a b', value: 1 }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(run('mem_set', { key: 'x'.repeat(513), value: 1 }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(run('mem_set', { key: 'k', value: 1, ttl: 0 }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(run('mem_set', { key: 'k', value: 1, ttl: 30 * 86400 + 1 }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(run('mem_set', { key: 'k' }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { details: [{ path: 'value', message: expect.stringContaining('required') }] },
    });
    await expect(run('mem_set', { key: 'big', value: 'x'.repeat(1024 * 1024) }, a)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });
});

describe('event tools', () => {
  const pub = ctxOf('agt_pub', 'acc_1');
  const sub = ctxOf('agt_sub', 'acc_1');
  const stranger = ctxOf('agt_other', 'acc_2');

  it('publishes to the account, retains events, and subscribe polls with a cursor', async () => {
    const first = (await run('events_publish', { topic: 'jobs', payload: { id: 1 } }, pub)) as {
      seq: number;
    };
    expect(first).toMatchObject({ published: true, topic: 'jobs', seq: 1 });
    expect(broadcasts.at(-1)).toMatchObject({
      type: 'tools.eventPublished',
      body: {
        scope: 'acc_1',
        event: { topic: 'jobs', seq: 1, payload: { id: 1 }, publishedBy: 'agref-agt_pub' },
      },
    });
    const polled = (await run('events_subscribe', { topic: 'jobs' }, sub)) as {
      cursor: number;
      events: unknown[];
    };
    expect(polled).toMatchObject({ topic: 'jobs', subscribed: true, cursor: 1, more: false, missed: false });
    expect(polled.events).toEqual([
      {
        topic: 'jobs',
        seq: 1,
        payload: { id: 1 },
        publishedBy: 'agref-agt_pub',
        publishedAt: expect.any(String),
      },
    ]);
    await run('events_publish', { topic: 'jobs', payload: 'two' }, pub);
    await run('events_publish', { topic: 'jobs', payload: 'three' }, pub);
    const next = (await run('events_subscribe', { topic: 'jobs', since: 1, limit: 1 }, sub)) as {
      events: Array<{ payload: unknown }>;
      cursor: number;
      more: boolean;
    };
    expect(next.events.map((e) => e.payload)).toEqual(['two']);
    expect(next).toMatchObject({ cursor: 2, more: true });
    // Another account sees nothing of it.
    await expect(run('events_subscribe', { topic: 'jobs' }, stranger)).resolves.toMatchObject({
      events: [],
      cursor: 0,
    });
  });

  it('keeps the last 100 events of a topic and says when a cursor missed some', async () => {
    for (let i = 1; i <= 105; i++) await run('events_publish', { topic: 'busy', payload: i }, pub);
    const all = (await run('events_subscribe', { topic: 'busy' }, sub)) as {
      events: Array<{ seq: number }>;
      missed: boolean;
      cursor: number;
    };
    expect(all.events).toHaveLength(100);
    expect(all.events[0].seq).toBe(6);
    expect(all).toMatchObject({ cursor: 105, missed: true });
    expect(await cache.get('tools:events:acc_1:event:busy#5')).toBeNull();
    const recent = (await run('events_subscribe', { topic: 'busy', since: 100 }, sub)) as {
      events: unknown[];
      missed: boolean;
    };
    expect(recent.events).toHaveLength(5);
    expect(recent.missed).toBe(false);
  });

  it("lists topics with their last sequence and the caller's subscriptions; unsubscribe", async () => {
    await run('events_subscribe', { topic: 'quiet' }, sub);
    const listed = (await run('events_list_topics', {}, sub)) as { topics: unknown[] };
    expect(listed.topics).toEqual([
      { topic: 'busy', lastSeq: 105, subscribed: true },
      { topic: 'jobs', lastSeq: 3, subscribed: true },
      { topic: 'quiet', lastSeq: 0, subscribed: true },
    ]);
    await expect(run('events_unsubscribe', { topic: 'jobs' }, sub)).resolves.toEqual({ unsubscribed: true });
    await expect(run('events_unsubscribe', { topic: 'jobs' }, sub)).resolves.toEqual({ unsubscribed: false });
    const again = (await run('events_list_topics', {}, pub)) as {
      topics: Array<{ topic: string; subscribed: boolean }>;
    };
    expect(again.topics.map((t) => [t.topic, t.subscribed])).toEqual([
      ['busy', false],
      ['jobs', false],
    ]);
  });

  it('validates topics and payloads', async () => {
    await expect(run('events_publish', { topic: 'bad topic', payload: 1 }, pub)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(run('events_publish', { topic: 't' }, pub)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(
      run('events_publish', { topic: 't', payload: 'x'.repeat(70_000) }, pub),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });
});
