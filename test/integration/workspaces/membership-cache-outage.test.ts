import type { WorkspaceMemberDocument } from '../../../schemas/documents/workspace-member';
import {
  WorkspaceMembership,
  type WorkspaceMembershipOptions,
} from '../../../actors/workspaces/workspace-membership';
import { createLogger } from '../../../src/logging/logger';
import { MemoryCache, type CachePort } from '../../../src/store/cache';
import {
  fakeEpochs,
  switchableCache,
  sharedWorkspace,
  memberRowOfB,
  fakeMembershipRepos,
} from './support/membership-fakes';

/**
 * The membership with its cache failing (docs/workspaces.md, "Cache"), on the in-memory cache
 * behind a switch: reads answer from the documents while the cache refuses or hangs, a removal
 * made during the outage shows at once and still holds once the cache is back (the list cached
 * before the outage is never served again), one log line per outage, and in the normal case no
 * document read per request for the epoch.
 */
describe('WorkspaceMembership with the cache failing', () => {
  const ws = sharedWorkspace();
  const memberB = memberRowOfB(ws);
  let rows: WorkspaceMemberDocument[];
  let loads = 0;
  let clock = 0;

  const { workspaces, members } = fakeMembershipRepos(
    ws,
    () => rows,
    () => {
      loads++;
    },
  );

  beforeEach(() => {
    rows = [memberB];
    loads = 0;
    clock = 0;
  });

  const B = { accountId: 'acc_b' };
  const membershipOver = (
    cache: CachePort,
    epochs = fakeEpochs().repo,
    options: WorkspaceMembershipOptions = {},
  ) => new WorkspaceMembership(workspaces, members, epochs, cache, { now: () => clock, ...options });

  /** B removed by the owner: the document goes, then the member's list is invalidated. */
  async function removeB(membership: WorkspaceMembership) {
    rows = [];
    await membership.invalidate(memberB.memberKey);
  }

  it('answers from the documents while the cache refuses, and a removal then holds after it is back', async () => {
    const epochs = fakeEpochs();
    const sw = switchableCache(new MemoryCache({ sweepIntervalMs: 0 }));
    const membership = membershipOver(sw.cache, epochs.repo);
    expect(await membership.workspaceIdsOf(B)).toEqual([ws._id]); // cached now
    expect(loads).toBe(1);

    sw.mode = 'down';
    expect(await membership.workspaceIdsOf(B)).toEqual([ws._id]);
    expect(loads).toBe(2); // from the documents
    await removeB(membership); // cannot reach the cache: raises the epoch instead of failing
    expect(await membership.workspaceIdsOf(B)).toEqual([]); // at once
    expect(await membership.isMember(B, ws._id)).toBe(false);

    sw.mode = 'up';
    clock += 1_000; // past the pause after a failure
    // The cache still holds B's list from before the outage, under the current generation.
    expect(await membership.workspaceIdsOf(B)).toEqual([]);
    const loadsAfterRestore = loads;
    // Back to cached reads: the fresh list was stored under the new epoch and is served.
    expect(await membership.workspaceIdsOf(B)).toEqual([]);
    expect(await membership.workspaceIdsOf(B)).toEqual([]);
    expect(loads).toBe(loadsAfterRestore);
  });

  it('with the document store down too: refuses what it cannot date, then settles the removal it could not', async () => {
    const epochs = fakeEpochs();
    const sw = switchableCache(new MemoryCache({ sweepIntervalMs: 0 }));
    // Epoch bound 0: every read checks the epoch in the documents.
    const membership = membershipOver(sw.cache, epochs.repo, { epochMaxAgeMs: 0 });
    expect(await membership.workspaceIdsOf(B)).toEqual([ws._id]); // cached now

    clock += 1; // the epoch read is now older than its bound
    epochs.setFailing(true);
    // The cached list is there, but whether it is still current is not known: no answer.
    await expect(membership.workspaceIdsOf(B)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    // A removal that reaches neither the cache nor the epoch says so instead of claiming success.
    sw.mode = 'down';
    await expect(removeB(membership)).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    // Meanwhile reads come from the documents (the cache is down): the removal shows.
    expect(await membership.workspaceIdsOf(B)).toEqual([]);

    epochs.setFailing(false);
    sw.mode = 'up';
    clock += 1_000; // past the pause after a failure
    // The cache still holds B's list from before; this process settles the removal before reading.
    expect(await membership.workspaceIdsOf(B)).toEqual([]);
    expect(await membership.isMember(B, ws._id)).toBe(false);
  });

  it('does not wait on a cache that hangs: bounded, then skips it for a while', async () => {
    const sw = switchableCache(new MemoryCache({ sweepIntervalMs: 0 }));
    const membership = membershipOver(sw.cache, undefined, { cacheTimeoutMs: 50, cacheRetryAfterMs: 1000 });
    sw.mode = 'hang';
    const started = Date.now();
    expect(await membership.workspaceIdsOf(B)).toEqual([ws._id]);
    expect(Date.now() - started).toBeLessThan(1000);
    const callsAfterFirst = sw.calls();
    for (let i = 0; i < 10; i++) expect(await membership.workspaceIdsOf(B)).toEqual([ws._id]);
    expect(sw.calls()).toBe(callsAfterFirst); // resting: straight to the documents

    // A change still tries the cache (bounded), then raises the epoch.
    rows = [];
    const change = Date.now();
    await membership.invalidate(memberB.memberKey);
    expect(Date.now() - change).toBeLessThan(1000);
    expect(await membership.workspaceIdsOf(B)).toEqual([]);
  });

  it('logs once per outage, not per request', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (l: string) => lines.push(JSON.parse(l)) },
    });
    const sw = switchableCache(new MemoryCache({ sweepIntervalMs: 0 }));
    const membership = membershipOver(sw.cache, undefined, { logger, cacheRetryAfterMs: 0 });
    sw.mode = 'down';
    for (let i = 0; i < 20; i++) await membership.workspaceIdsOf(B);
    await removeB(membership);
    sw.mode = 'up';
    clock += 1;
    for (let i = 0; i < 5; i++) await membership.workspaceIdsOf(B);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringContaining('cache unreachable')],
      [30, expect.stringContaining('cache answering again')],
    ]);
    expect(lines[1]).toMatchObject({ readsFromDocuments: 20, epochBumps: 1 });
  });

  it('another process that saw no failure refuses the stale list once its epoch is older than its bound', async () => {
    const shared = new MemoryCache({ sweepIntervalMs: 0 });
    const epochs = fakeEpochs();
    const sw = switchableCache(shared);
    // P1 is cut from the cache; P2 never is (the worst case: it has no failure to learn from).
    const p1 = membershipOver(sw.cache, epochs.repo);
    const p2 = membershipOver(shared, epochs.repo, { epochMaxAgeMs: 1000 });
    expect(await p2.workspaceIdsOf(B)).toEqual([ws._id]); // cached, epoch 0
    sw.mode = 'down';
    await removeB(p1);
    expect(await p1.workspaceIdsOf(B)).toEqual([]);
    clock += 1001; // P2's epoch is now older than its bound
    expect(await p2.workspaceIdsOf(B)).toEqual([]);
    // And the list it cached under the new epoch is what P1 reads once its cache is back.
    sw.mode = 'up';
    clock += 1000;
    const before = loads;
    expect(await p1.workspaceIdsOf(B)).toEqual([]);
    expect(loads).toBe(before);
  });

  it('reads the epoch from the documents at most once per bound in the normal case', async () => {
    const epochs = fakeEpochs();
    const membership = membershipOver(new MemoryCache({ sweepIntervalMs: 0 }), epochs.repo, {
      epochMaxAgeMs: 1000,
    });
    for (let i = 0; i < 100; i++) await membership.workspaceIdsOf(B);
    expect(epochs.reads()).toBe(1);
    expect(loads).toBe(1);
    clock += 1001;
    for (let i = 0; i < 100; i++) await membership.workspaceIdsOf({ accountId: 'acc_b', agentId: 'agt_b' });
    expect(epochs.reads()).toBe(2);
  });

  it('with a memory cache, never re-reads the epoch unless the cache failed', async () => {
    const epochs = fakeEpochs();
    const membership = membershipOver(new MemoryCache({ sweepIntervalMs: 0 }), epochs.repo);
    await membership.workspaceIdsOf(B);
    clock += 3_600_000;
    await membership.workspaceIdsOf(B);
    expect(epochs.reads()).toBe(1);
  });
});
