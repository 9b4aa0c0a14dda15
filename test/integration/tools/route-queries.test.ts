import type { RouteRecordInput } from '../../../actors/tools/router/route-pages';
import { routeRecordsOn } from '../../../actors/tools/router/route-records';
import { ROUTE_RECORD_RETENTION_SEC } from '../../../actors/tools/router/route-records.collection';
import type { Principal } from '../../../schemas/auth';
import { silentLogger } from '../../../src/logging/logger';
import { DocumentStore } from '../../../src/store/mongo';
import { describeEachTarget } from '../../conformance/mongo/targets';

// An hour ago, to the second: the pages keep a TTL of a week on their newest record, so a fixed
// date would be swept by the store's TTL monitor once it is a week old.
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const NONE = { apps: [], workflows: [], skills: [] };

/** A deterministic shuffle, so that a failure replays. */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x / 2 ** 31;
  }
}

const agentPrincipal = (agentId: string): Principal => ({ subjectType: 'agent', agentId, via: 'bearer' });
const accountPrincipal = (accountId: string): Principal => ({
  subjectType: 'account',
  accountId,
  via: 'bearer',
});

describeEachTarget('route records in pages: the latest of an owner across processes', (target) => {
  let documents: DocumentStore;
  /** Every record written, pages and the former one-document-per-call collection alike. */
  const all: RouteRecordInput[] = [];

  beforeAll(async () => {
    const { client, db } = target();
    documents = new DocumentStore(client, db, 'test', silentLogger);
    const processes = [0, 1, 2].map(() =>
      routeRecordsOn(documents, silentLogger, { batchSize: 7, flushIntervalMs: 60_000 }),
    );
    await documents.ensureIndexes();
    const random = numbers(42);
    const next = () => random.next().value as number;
    // 3 processes record 150 calls of 3 agents (two of account acc_1), each ending in its own
    // order: the pages of the processes overlap in time, and a page's records are not in time order.
    const used = new Set<number>();
    for (let i = 0; i < 150; i++) {
      let ms: number;
      do ms = T0 + Math.floor(next() * 10_000);
      while (used.has(ms));
      used.add(ms);
      const agent = ['agt_a', 'agt_b', 'agt_c'][Math.floor(next() * 3)];
      const r: RouteRecordInput = {
        tool: i % 5 === 0 ? 'platform.mem_set' : 'platform.mem_get',
        primitive: i % 5 === 0 ? 'mem_set' : 'mem_get',
        fallbackUsed: false,
        invokedByType: agent === 'agt_c' ? 'agent' : 'account',
        routeDecision: { source: 'platform' },
        related: i % 11 === 0 ? { apps: [`app-${i}`], workflows: [], skills: [] } : NONE,
        agentRef: `agref-${agent}`,
        agentId: agent,
        ...(agent === 'agt_c' ? {} : { accountId: 'acc_1' }),
        status: i % 13 === 0 ? 'error' : 'ok',
        ...(i % 13 === 0 ? { errorCode: 'RATE_LIMITED' } : {}),
        durationMs: Math.round(next() * 1000) / 100,
        at: new Date(ms),
      };
      all.push(r);
      processes[Math.floor(next() * 3)].recorder.record(r, r.status === 'ok');
    }
    // Records as versions before the pages stored them, one document each.
    const legacy = db.collection('route_records');
    for (let i = 0; i < 12; i++) {
      const agent = i % 2 === 0 ? 'agt_a' : 'agt_c';
      const r: RouteRecordInput = {
        ...all[i],
        agentId: agent,
        agentRef: `agref-${agent}`,
        ...(agent === 'agt_a' ? { accountId: 'acc_1' } : { accountId: undefined }),
        at: new Date(T0 + 20_000 + i * 1000 - (i % 3) * 15_000),
      };
      if (r.accountId === undefined) delete r.accountId;
      all.push(r);
      await legacy.insertOne({ _id: `rr_legacy_${i}`, ...r } as never);
    }
    await Promise.all(processes.map((p) => p.recorder.close()));
  });

  const view = (r: RouteRecordInput) => ({
    tool: r.tool,
    primitive: r.primitive,
    fallbackUsed: r.fallbackUsed,
    invokedByType: r.invokedByType,
    routeDecision: r.routeDecision,
    related: r.related,
    agentRef: r.agentRef,
    status: r.status,
    ...(r.errorCode ? { errorCode: r.errorCode } : {}),
    durationMs: r.durationMs,
    at: r.at.toISOString(),
  });
  const expected = (keep: (r: RouteRecordInput) => boolean, limit: number) =>
    all
      .filter(keep)
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, limit)
      .map(view);

  it('stored the records as pages of at most a batch each, with a TTL on their newest record', async () => {
    const pages = await target().db.collection('route_pages').find().toArray();
    expect(pages.reduce((n, p) => n + (p.rows as { tool: unknown[] }).tool.length, 0)).toBe(150);
    expect(Math.max(...pages.map((p) => (p.rows as { tool: unknown[] }).tool.length))).toBe(7);
    const ttl = (await target().db.collection('route_pages').indexes()).find((i) => i.name === 'until_ttl');
    expect(ttl).toMatchObject({ key: { until: 1 }, expireAfterSeconds: ROUTE_RECORD_RETENTION_SEC });
  });

  it.each([1, 5, 37, 200])(
    'gives an agent its %i newest records, newest first, old format included',
    async (limit) => {
      const { queries } = routeRecordsOn(documents, silentLogger);
      for (const agent of ['agt_a', 'agt_c']) {
        const answer = await queries.forCaller(agentPrincipal(agent), limit);
        expect(answer.routes).toEqual(expected((r) => r.agentId === agent, limit));
      }
    },
  );

  it('gives an account the newest records of all its agents, and the summary per primitive', async () => {
    const { queries } = routeRecordsOn(documents, silentLogger);
    const answer = await queries.forCaller(accountPrincipal('acc_1'), 50);
    expect(answer.routes).toEqual(expected((r) => r.accountId === 'acc_1', 50));
    const ran = all.slice(0, 150).filter((r) => r.accountId === 'acc_1' && r.status === 'ok');
    expect(answer.primitives.reduce((n, p) => n + p.executions, 0)).toBe(ran.length);
    expect(answer.primitives.find((p) => p.primitive === 'mem_set')?.executions).toBe(
      ran.filter((r) => r.primitive === 'mem_set').length,
    );
  });

  it('fails a listing over a corrupt page with INTERNAL_ERROR naming the collection, not with garbage', async () => {
    const { db } = target();
    const until = new Date(T0 + 60_000);
    await db.collection('route_pages').insertOne({
      _id: 'rp_corrupt_00000000',
      from: until,
      until,
      agentIds: ['agt_corrupt'],
      accountIds: [],
      strings: ['agt_corrupt'],
      rows: { tool: [7], agentId: [0] },
    } as never);
    const { queries } = routeRecordsOn(documents, silentLogger);
    await expect(queries.forCaller(agentPrincipal('agt_corrupt'), 10)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      details: { collection: 'route_pages', id: 'rp_corrupt_00000000' },
    });
    // Other owners' listings do not read that page.
    expect((await queries.forCaller(agentPrincipal('agt_c'), 1)).routes).toHaveLength(1);
  });

  it('answers nothing for an owner without records', async () => {
    const { queries } = routeRecordsOn(documents, silentLogger);
    expect(await queries.forCaller(agentPrincipal('agt_nobody'), 50)).toEqual({ routes: [], primitives: [] });
    expect(await queries.forCaller(accountPrincipal('acc_nobody'), 50)).toEqual({
      routes: [],
      primitives: [],
    });
  });
});
