import type { MembershipEpochDocument } from '../../../../schemas/documents/workspace-membership-epoch';
import type { WorkspaceDocument } from '../../../../schemas/documents/account';
import type { WorkspaceMemberDocument } from '../../../../schemas/documents/workspace-member';
import { AppError } from '../../../../schemas/errors';
import type { CachePort } from '../../../../src/store/cache';
import type { Repository } from '../../../../src/store/mongo';

/**
 * In-memory `workspaces` (holding `ws`) and `workspace_members` repositories for the membership
 * tests. A members read takes its rows (`rows()`, filtered) first, then awaits `onFind` (count the
 * read, or hold it to race a change), and answers what the store held when the read began.
 */
export function fakeMembershipRepos(
  ws: WorkspaceDocument,
  rows: () => WorkspaceMemberDocument[],
  onFind?: () => void | Promise<void>,
): { workspaces: Repository<WorkspaceDocument>; members: Repository<WorkspaceMemberDocument> } {
  const workspaces = {
    findById: async (id: string) => (id === ws._id ? ws : null),
    find: async () => [],
  } as unknown as Repository<WorkspaceDocument>;
  const members = {
    find: async (filter: { accountId?: string; workspaceId?: string }) => {
      const snapshot = rows().filter(
        (r) =>
          (filter.accountId === undefined || r.accountId === filter.accountId) &&
          (filter.workspaceId === undefined || r.workspaceId === filter.workspaceId),
      );
      await onFind?.();
      return snapshot;
    },
  } as unknown as Repository<WorkspaceMemberDocument>;
  return { workspaces, members };
}

/** The epoch collection in memory, counting its reads (the hot path must not read it per request). */
export function fakeEpochs(): {
  repo: Repository<MembershipEpochDocument>;
  reads: () => number;
  /** Makes every read and bump fail (the document store down) or answer again. */
  setFailing: (failing: boolean) => void;
} {
  let doc: MembershipEpochDocument | null = null;
  let reads = 0;
  let failing = false;
  const down = () => new AppError('UNAVAILABLE', 'document store unavailable');
  const repo = {
    findById: async () => {
      if (failing) throw down();
      reads++;
      return doc ? { ...doc } : null;
    },
    findOneAndUpdate: async () => {
      if (failing) throw down();
      doc = { _id: 'membership', epoch: (doc?.epoch ?? 0) + 1, bumpedAt: new Date() };
      return { ...doc };
    },
  } as unknown as Repository<MembershipEpochDocument>;
  return { repo, reads: () => reads, setFailing: (f) => (failing = f) };
}

export type CacheMode = 'up' | 'down' | 'hang';

/**
 * A cache port in front of a real one that a test can make refuse every call (`down`: UNAVAILABLE,
 * as the Redis adapter answers while Redis is unreachable) or never answer (`hang`: a stuck
 * server). Counts the calls that reached it.
 */
export function switchableCache(inner: CachePort): {
  cache: CachePort;
  mode: CacheMode;
  calls: () => number;
} {
  let calls = 0;
  const control = { mode: 'up' as CacheMode, calls: () => calls, cache: undefined as unknown as CachePort };
  const guarded = new Set(['get', 'mget', 'set', 'delete', 'incr', 'expire', 'ttl', 'list', 'take']);
  control.cache = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !guarded.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        if (control.mode === 'down') {
          return Promise.reject(new AppError('UNAVAILABLE', 'cache unavailable', { reason: 'test: cut' }));
        }
        if (control.mode === 'hang') return new Promise(() => undefined);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return control;
}

/** The workspace the membership tests share: `ws_shared`, owned by `acc_owner`. */
export function sharedWorkspace(): WorkspaceDocument {
  return {
    _id: 'ws_shared',
    ownerAccountId: 'acc_owner',
    name: 'Shared',
    isDefault: false,
    members: [{ accountId: 'acc_owner', role: 'owner' }],
    createdAt: new Date(),
    version: 0,
  };
}

/** `acc_b`'s membership row (role member) in `ws`. */
export function memberRowOfB(ws: WorkspaceDocument): WorkspaceMemberDocument {
  return {
    _id: 'wsm_000000000000000000000001',
    workspaceId: ws._id,
    memberKey: 'account:acc_b',
    accountId: 'acc_b',
    role: 'member',
    addedBy: 'acc_owner',
    createdAt: new Date(),
  };
}
