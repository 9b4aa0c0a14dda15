import { EventEmitter } from 'node:events';
import { CrewService, type Duty } from '../../../actors/operations/crew.service';
import { silentLogger } from '../../../src/logging/logger';
import { MemoryCache } from '../../../src/store/cache';
import { deferred, waitFor } from '../../support/async';

/**
 * Crew members over one shared cache (as Redis is for real nodes) and one broadcast bus (as the
 * actor system's is): they see each other, split the features, hand a duty over on failover, and
 * drop out when their record's lease lapses.
 */

const bus = new EventEmitter();
let cache: MemoryCache;
const crews: CrewService[] = [];

function member(nodeId: string, duties: Duty[], kinds = ['execution']): CrewService {
  const system = {
    nodeId,
    status: () =>
      ({ nodeId, state: 'running', kinds, actors: 0, inFlight: 0, deferred: 0, pendingRequests: 0 }) as never,
    broadcast: async (type: string, body: unknown) => {
      bus.emit(type, body);
    },
    onBroadcast: (type: string, listener: (body: unknown) => void) => {
      const l = (body: unknown) => listener(body);
      bus.on(type, l);
      return () => bus.off(type, l);
    },
  };
  const crew = new CrewService({
    system: system as never,
    cache,
    logger: silentLogger,
    role: 'worker',
    heartbeatMs: 200,
    runtime: ['sandbox'],
    cluster: 'test',
    offersDuties: true,
  });
  for (const duty of duties) crew.addDuty(duty);
  crews.push(crew);
  return crew;
}

/** A duty that counts its runs per node. */
function countingDuty(runs: Map<string, number>, nodeId: string, intervalMs = 50): Duty {
  return {
    name: 'sweeper',
    intervalMs,
    run: async () => {
      runs.set(nodeId, (runs.get(nodeId) ?? 0) + 1);
      return 1;
    },
  };
}

beforeEach(() => {
  cache = new MemoryCache({ sweepIntervalMs: 0 });
});
afterEach(async () => {
  for (const c of crews.splice(0)) await c.stop();
  await cache.close();
  bus.removeAllListeners();
});

describe('CrewService', () => {
  it('two members see each other: every feature gets an active and a standby node', async () => {
    const runs = new Map<string, number>();
    const a = member('node-a', [countingDuty(runs, 'node-a')]);
    const b = member('node-b', [countingDuty(runs, 'node-b')]);
    a.start();
    b.start();
    await waitFor(async () => (await a.refresh()).nodes.length === 2, 'both nodes live');
    await a.beat();
    const view = await b.beat();
    expect(view.features.map((f) => f.featureSlug)).toEqual([
      'actor:execution',
      'duty:sweeper',
      'runtime:sandbox',
    ]);
    for (const f of view.features) {
      expect(f.coverage).toBe('fullyCovered');
      expect(new Set([f.active, f.standby])).toEqual(new Set(['node-a', 'node-b']));
    }
    // Both compute the same crew.
    expect((await a.refresh()).features).toEqual(view.features);
  });

  it('runs a duty only on its active node, and on the other one after a failover', async () => {
    const runs = new Map<string, number>();
    const a = member('node-a', [countingDuty(runs, 'node-a')]);
    const b = member('node-b', [countingDuty(runs, 'node-b')]);
    a.start();
    b.start();
    await waitFor(async () => (await a.beat()).nodes.length === 2 && (await b.beat()).nodes.length === 2);
    const crew = (await a.beat()).features.find((f) => f.featureSlug === 'duty:sweeper')!;
    const [active, standby] = [crew.active!, crew.standby!];
    // Counted from the moment the crew converged (each may have seen only itself at its first beat).
    const standbyRuns = runs.get(standby) ?? 0;
    const activeRuns = runs.get(active) ?? 0;
    await waitFor(() => (runs.get(active) ?? 0) >= activeRuns + 3, 'runs on the active node');
    expect(runs.get(standby) ?? 0).toBe(standbyRuns);

    const { after } = await a.failover('duty:sweeper', 'ADMIN_TOKEN', 'drill');
    expect(after).toMatchObject({ active: standby, standby: active, coverage: 'fullyCovered' });
    expect(after.lastFailover).toMatchObject({
      from: active,
      to: standby,
      by: 'ADMIN_TOKEN',
      reason: 'drill',
    });
    // Every member heard the change: the demoted one stops, the promoted one runs it.
    await waitFor(() => !crews.find((c) => c.nodeId === active)!.isActive('duty:sweeper'), 'demotion heard');
    const stoppedAt = runs.get(active) ?? 0;
    await waitFor(() => (runs.get(standby) ?? 0) >= 3, 'runs on the promoted node');
    expect(runs.get(active) ?? 0).toBeLessThanOrEqual(stoppedAt + 1);
  });

  it('a member that stops beating drops out after its lease: its features turn degraded', async () => {
    const a = member('node-a', []);
    const b = member('node-b', []);
    a.start();
    b.start();
    await waitFor(async () => (await a.refresh()).nodes.length === 2);
    // A crash: no more beats, and its record is not removed (stop() would remove it).
    (b as unknown as { stopped: boolean }).stopped = true;
    clearInterval((b as unknown as { heartbeat: NodeJS.Timeout }).heartbeat);
    await waitFor(async () => (await a.refresh()).nodes.length === 1, 'the silent node gone', 3000);
    const view = await a.beat();
    expect(
      view.features.every((f) => f.active === 'node-a' && f.standby === null && f.coverage === 'degraded'),
    ).toBe(true);
  });

  it('runs every duty once from cron; a concurrent call finds it running and skips it', async () => {
    const gate = deferred();
    let runs = 0;
    const slow: Duty = {
      name: 'slow',
      intervalMs: 60_000,
      run: async () => {
        runs += 1;
        await gate.promise;
        return 7;
      },
    };
    const a = member('node-a', [slow]);
    const b = member('node-b', [{ ...slow }]);
    const first = a.runAll();
    await waitFor(() => runs === 1);
    const second = await b.runAll();
    expect(second).toEqual([{ duty: 'slow', ok: true, items: 0, ms: 0, skipped: 'running elsewhere' }]);
    gate.resolve();
    expect(await first).toEqual([expect.objectContaining({ duty: 'slow', ok: true, items: 7 })]);
    expect(runs).toBe(1);
    // The lock is released: the next call runs it again.
    expect((await b.runAll())[0]).toMatchObject({ ok: true, items: 7 });
  });

  it('a failed duty is reported, not thrown; failover of an unknown feature or without standby is refused', async () => {
    const a = member('node-a', [
      { name: 'broken', intervalMs: 60_000, run: () => Promise.reject(new Error('store down')) },
    ]);
    a.start();
    await a.beat();
    expect(await a.runAll()).toEqual([
      expect.objectContaining({ duty: 'broken', ok: false, error: 'store down' }),
    ]);
    await expect(a.failover('duty:nothing', 'x', 'y')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(a.failover('duty:broken', 'x', 'y')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('a cache that fails while a duty takes its run lock is reported, never thrown (a timer would crash the process)', async () => {
    let runs = 0;
    const a = member('node-a', [{ name: 'sweeper', intervalMs: 60_000, run: async () => ++runs }]);
    const set = cache.set.bind(cache);
    cache.set = async () => {
      throw new Error('Command timed out');
    };
    expect(await a.runAll()).toEqual([
      expect.objectContaining({
        duty: 'sweeper',
        ok: false,
        error: expect.stringContaining('Command timed out'),
      }),
    ]);
    expect(runs).toBe(0);
    cache.set = set;
    expect((await a.runAll())[0]).toMatchObject({ ok: true, items: 1 });
  });
});
