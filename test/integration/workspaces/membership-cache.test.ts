import type { WorkspaceDocument } from '../../../schemas/documents/account';
import type { WorkspaceMemberDocument } from '../../../schemas/documents/workspace-member';
import { WorkspaceMembership } from '../../../actors/workspaces/workspace-membership';
import { MemoryCache } from '../../../src/store/cache';
import type { Repository } from '../../../src/store/mongo';
import { deferred } from '../../support/async';
import { fakeEpochs } from './support/membership-fakes';

/**
 * The membership cache (docs/workspaces.md, "Cache"): a read that loaded its list before a change
 * and stores it after the invalidation must never be served afterwards.
 */
describe('WorkspaceMembership cache', () => {
  const ws: WorkspaceDocument = {
    _id: 'ws_shared',
    ownerAccountId: 'acc_owner',
    name: 'Shared',
    isDefault: false,
    members: [{ accountId: 'acc_owner', role: 'owner' }],
    createdAt: new Date(),
    version: 0,
  };
  let rows: WorkspaceMemberDocument[];
  let gate: ReturnType<typeof deferred<void>> | undefined;
  let finds = 0;

  const workspaces = {
    findById: async (id: string) => (id === ws._id ? ws : null),
    find: async () => [],
  } as unknown as Repository<WorkspaceDocument>;
  const members = {
    find: async (filter: { accountId?: string; workspaceId?: string }) => {
      finds++;
      // Read the rows first, then wait: the answer is what the store held when the read began.
      const snapshot = rows.filter(
        (r) =>
          (filter.accountId === undefined || r.accountId === filter.accountId) &&
          (filter.workspaceId === undefined || r.workspaceId === filter.workspaceId),
      );
      if (gate) await gate.promise;
      return snapshot;
    },
  } as unknown as Repository<WorkspaceMemberDocument>;

  beforeEach(() => {
    finds = 0;
    gate = undefined;
    rows = [
      {
        _id: 'wsm_000000000000000000000001',
        workspaceId: ws._id,
        memberKey: 'account:acc_b',
        accountId: 'acc_b',
        role: 'member',
        addedBy: 'acc_owner',
        createdAt: new Date(),
      },
    ];
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
