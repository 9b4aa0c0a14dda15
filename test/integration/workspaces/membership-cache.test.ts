import type { WorkspaceMemberDocument } from '../../../schemas/documents/workspace-member';
import { WorkspaceMembership } from '../../../actors/workspaces/workspace-membership';
import { MemoryCache } from '../../../src/store/cache';
import { deferred } from '../../support/async';
import { fakeEpochs, fakeMembershipRepos, memberRowOfB, sharedWorkspace } from './support/membership-fakes';

/**
 * The membership cache (docs/workspaces.md, "Cache"): a read that loaded its list before a change
 * and stores it after the invalidation must never be served afterwards.
 */
describe('WorkspaceMembership cache', () => {
  const ws = sharedWorkspace();
  let rows: WorkspaceMemberDocument[];
  let gate: ReturnType<typeof deferred<void>> | undefined;
  let finds = 0;

  // A read takes the rows first, then waits at the gate: it answers what the store held when it began.
  const { workspaces, members } = fakeMembershipRepos(
    ws,
    () => rows,
    async () => {
      finds++;
      if (gate) await gate.promise;
    },
  );

  beforeEach(() => {
    finds = 0;
    gate = undefined;
    rows = [memberRowOfB(ws)];
  });

  it('serves from the cache until a change, then reloads', async () => {
    const membership = new WorkspaceMembership(
      workspaces,
      members,
      fakeEpochs().repo,
      new MemoryCache({ sweepIntervalMs: 0 }),
    );
    expect(await membership.workspaceIdsOf({ accountId: 'acc_b' })).toEqual([ws._id]);
    expect(await membership.workspaceIdsOf({ accountId: 'acc_b' })).toEqual([ws._id]);
    expect(finds).toBe(1);
    rows = [];
    await membership.invalidate('account:acc_b');
    expect(await membership.workspaceIdsOf({ accountId: 'acc_b' })).toEqual([]);
    expect(finds).toBe(2);
  });

  it('never serves a list loaded before a removal and stored after it', async () => {
    const membership = new WorkspaceMembership(
      workspaces,
      members,
      fakeEpochs().repo,
      new MemoryCache({ sweepIntervalMs: 0 }),
    );
    gate = deferred<void>();
    const racing = membership.workspaceIdsOf({ accountId: 'acc_b' });
    // The removal lands while that read is in flight.
    await new Promise((r) => setTimeout(r, 10));
    rows = [];
    await membership.invalidate('account:acc_b');
    gate.resolve();
    expect(await racing).toEqual([ws._id]); // it began before the removal
    gate = undefined;
    expect(await membership.workspaceIdsOf({ accountId: 'acc_b' })).toEqual([]);
    expect(await membership.isMember({ accountId: 'acc_b' }, ws._id)).toBe(false);
    expect(await membership.isMember({ accountId: 'acc_owner' }, ws._id)).toBe(true);
  });
});
