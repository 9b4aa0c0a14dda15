import { EventEmitter } from 'node:events';
import { CrewDocumentsStore } from '../../../actors/operations/crew-documents.store';
import { crewRecordsCollection } from '../../../actors/operations/crew-records.collection';
import { CrewService, type Duty } from '../../../actors/operations/crew.service';
import { silentLogger } from '../../../src/logging/logger';
import { MemoryCache } from '../../../src/store/cache';
import type { DocumentStore } from '../../../src/store/mongo';
import { deferred, waitFor } from '../../support/async';
import { embeddedTarget, type DocumentTarget } from '../store/document-targets';

/**
 * The crew without Redis: each member has a cache of its own (nothing shared there, as for
 * processes without REDIS_URL) and they share only the document store, as processes share
 * MongoDB. They still see each other, split the duties, run a duty once from concurrent crons,
 * and a member that dies drops out within its lease.
 */
describe('the crew over the document store (no shared cache)', () => {
  let target: DocumentTarget;
  let documents: DocumentStore;
  const bus = new EventEmitter();
  const crews: CrewService[] = [];
  const caches: MemoryCache[] = [];
  let cluster = 0;

  beforeAll(async () => {
    target = await embeddedTarget.create();
    documents = target.store;
    await documents.ensureIndexes([crewRecordsCollection]);
  });
  afterAll(async () => {
    await target?.cleanup();
  });
  beforeEach(() => {
    cluster += 1;
  });
  afterEach(async () => {
    for (const c of crews.splice(0)) await c.stop();
    for (const c of caches.splice(0)) await c.close();
    bus.removeAllListeners();
  });

  function member(nodeId: string, duties: Duty[]): CrewService {
    const cache = new MemoryCache({ sweepIntervalMs: 0 });
    caches.push(cache);
    const system = {
      nodeId,
      status: () => ({ nodeId, state: 'running', kinds: ['execution'], actors: 0, inFlight: 0 }) as never,
      broadcast: async (type: string, body: unknown) => void bus.emit(type, body),
      onBroadcast: (type: string, listener: (body: unknown) => void) => {
        const l = (body: unknown) => listener(body);
        bus.on(type, l);
        return () => bus.off(type, l);
      },
    };
    const crew = new CrewService({
      system: system as never,
      cache,
      store: { kind: 'documents', records: new CrewDocumentsStore(documents, `c${cluster}:`) },
      logger: silentLogger,
      role: 'worker',
      heartbeatMs: 500, // a lease of 1.5 s: a loaded machine stalls a member for less
      runtime: ['sandbox'],
      cluster: `c${cluster}`,
      offersDuties: true,
    });
    for (const duty of duties) crew.addDuty(duty);
    crews.push(crew);
    return crew;
  }

  const counting = (runs: Map<string, number>, nodeId: string): Duty => ({
    name: 'sweeper',
    intervalMs: 50,
    run: async () => {
      runs.set(nodeId, (runs.get(nodeId) ?? 0) + 1);
      return 1;
    },
  });

  it('members see each other and a duty runs on its active node only', async () => {
    const runs = new Map<string, number>();
    const a = member('node-a', [counting(runs, 'node-a')]);
    const b = member('node-b', [counting(runs, 'node-b')]);
    a.start();
    b.start();
    expect(a.storeKind).toBe('documents');
    await waitFor(
      async () => (await a.beat()).nodes.length === 2 && (await b.beat()).nodes.length === 2,
      'both see both',
      10_000,
    );
    // Each member re-plans the crew at its own beat: wait for one view where every feature has both.
    let view = await b.beat();
    await waitFor(
      async () => (view = await b.beat()).features.every((f) => f.coverage === 'fullyCovered'),
      'every feature fully covered',
      10_000,
    );
    for (const f of view.features) {
      expect(f.coverage).toBe('fullyCovered');
      expect(new Set([f.active, f.standby])).toEqual(new Set(['node-a', 'node-b']));
    }
    const sweeper = view.features.find((f) => f.featureSlug === 'duty:sweeper')!;
    const [active, standby] = [sweeper.active!, sweeper.standby!];
    const standbyRuns = runs.get(standby) ?? 0;
    const activeRuns = runs.get(active) ?? 0;
    await waitFor(() => (runs.get(active) ?? 0) >= activeRuns + 3, 'runs on the active node', 10_000);
    expect(runs.get(standby) ?? 0).toBe(standbyRuns);
    // The records are in the document store, under the cluster's prefix. (Waited for: a member
    // stalled past its lease by a loaded machine loses its record until its next beat; seen in CI.)
    const expected = [`c${cluster}:node:node-a`, `c${cluster}:node:node-b`];
    let ids: string[] = [];
    await waitFor(
      async () => {
        ids = (await documents.db.collection('crew_records').find({}).toArray()).map((d) => String(d._id));
        return expected.every((id) => ids.includes(id));
      },
      'both records in the document store',
      10_000,
    );
    expect(ids).toEqual(expect.arrayContaining(expected));
  });

  it('a member that dies drops out when its lease lapses', async () => {
    const a = member('node-a', []);
    const b = member('node-b', []);
    a.start();
    b.start();
    await waitFor(async () => (await a.refresh()).nodes.length === 2, 'both live', 10_000);
    // A crash: no more beats and its record stays (stop() would delete it).
    (b as unknown as { stopped: boolean }).stopped = true;
    clearInterval((b as unknown as { heartbeat: NodeJS.Timeout }).heartbeat);
    await waitFor(async () => (await a.refresh()).nodes.length === 1, 'the silent node gone', 5000);
    const view = await a.beat();
    expect(view.features.every((f) => f.active === 'node-a' && f.coverage === 'degraded')).toBe(true);
  });

  it('concurrent crons on two members run a duty once; a lapsed lock is taken over', async () => {
    const gate = deferred();
    let runs = 0;
    const slow = (): Duty => ({
      name: 'slow',
      intervalMs: 60_000,
      run: async () => {
        runs++;
        await gate.promise;
        return 2;
      },
    });
    const a = member('node-a', [slow()]);
    const b = member('node-b', [slow()]);
    const first = a.runAll();
    await waitFor(() => runs === 1, 'the first run started');
    const second = await b.runAll();
    expect(second).toEqual([{ duty: 'slow', ok: true, items: 0, ms: 0, skipped: 'running elsewhere' }]);
    gate.resolve();
    expect((await first)[0]).toMatchObject({ duty: 'slow', ok: true, items: 2 });
    expect(runs).toBe(1);

    // A lock whose holder died is taken once its lease lapsed, by one caller only.
    const store = new CrewDocumentsStore(documents, `c${cluster}:`);
    expect(await store.set('run:ghost', 'dead-node', { ttlMs: 100, onlyIfAbsent: true })).toBe(true);
    expect(await store.set('run:ghost', 'x', { ttlMs: 60_000, onlyIfAbsent: true })).toBe(false);
    await new Promise((r) => setTimeout(r, 150));
    const takers = await Promise.all(
      ['p', 'q', 'r'].map((v) => store.set('run:ghost', v, { ttlMs: 60_000, onlyIfAbsent: true })),
    );
    expect(takers.filter(Boolean)).toHaveLength(1);
  });
});
