import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { WorkspaceDocument } from '../../schemas/documents/account';
import type { WorkspaceMemberDocument } from '../../schemas/documents/workspace-member';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import type { Repository } from '../../src/store/mongo';
import { CACHE_MISSED, MembershipCacheLink } from './membership-cache-link';
import type { MembershipEpochDocument } from '../../schemas/documents/workspace-membership-epoch';
import { MembershipEpoch } from './membership-epoch';
import { accountMemberKey, agentMemberKey } from './workspace-members.collection';

/**
 * **The** answer to "is this caller a member of workspace X" (docs/workspaces.md), used by the
 * files, memory and vault domains. A caller is an account, one of its agents, or a
 * self-registered agent (no account):
 *
 * - an account is a member of the workspaces it owns (its default one included), of those it was
 *   added to (`workspace_members`), and of those whose `workspaces.members` array names it (the
 *   owner entry written at signup; kept for documents written before `workspace_members`);
 * - an agent of an account is a member wherever its account is ("every account has a default
 *   workspace; its agents and subagents are members"), plus where it was added by `agentRef`;
 * - a self-registered agent only where it was added.
 *
 * `workspaceIdsOf` is the hot read (every listing): cached per account and per agent on the cache
 * port, invalidated by every membership change (see `invalidate`). `roleOf` is the authoritative
 * read for decisions that write (it never uses the cache).
 *
 * The cache is an accelerator, never a dependency: when a cache call fails or does not answer in
 * time (`MembershipCacheLink`), the list is read from the documents (the authoritative source),
 * and a change that cannot invalidate the cache raises the membership epoch
 * (`MembershipEpoch`) so that no list cached before it is served once the cache is back.
 */

/** Who is asking: the internal ids of an authenticated principal. */
export interface MemberSubject {
  accountId?: string;
  agentId?: string;
}

export type MembershipRole = 'owner' | 'admin' | 'member';

/**
 * How long a cached membership list may live: the bound of staleness if the cache loses an
 * invalidation it accepted (eviction). One it could not accept (outage) raises the epoch instead.
 */
export const MEMBERSHIP_CACHE_TTL_MS = 60_000;

/**
 * A cached list: the generation of its member key and the membership epoch its reader knew before
 * loading it (entries cached before the epoch existed have none, and count as epoch 0).
 */
const CacheEntrySchema = z.object({
  gen: z.string().nullable(),
  epoch: z.number().int().nonnegative().default(0),
  ids: z.array(z.string()),
});

/** Tuning of `WorkspaceMembership` (tests); the defaults are the service's. */
export interface WorkspaceMembershipOptions {
  logger?: Logger;
  /** Longest wait for one cache call before reading the documents, ms (`MembershipCacheLink`). */
  cacheTimeoutMs?: number;
  /** How long reads skip the cache after it failed, ms (`MembershipCacheLink`). */
  cacheRetryAfterMs?: number;
  /** How long this process trusts the epoch it read, ms (`MembershipEpoch`; Infinity for a memory cache). */
  epochMaxAgeMs?: number;
  /** Monotonic clock, for tests. */
  now?: () => number;
}

export class WorkspaceMembership {
  private readonly epoch: MembershipEpoch;
  private readonly link: MembershipCacheLink;

  constructor(
    private readonly workspaces: Repository<WorkspaceDocument>,
    private readonly members: Repository<WorkspaceMemberDocument>,
    epochs: Repository<MembershipEpochDocument>,
    private readonly cache: CachePort,
    options: WorkspaceMembershipOptions = {},
  ) {
    // A memory cache is this process's own: no other process can miss an invalidation in it, so
    // the epoch needs no periodic re-read (it is still re-read after a failure seen here).
    const epochMaxAgeMs = options.epochMaxAgeMs ?? (cache.kind === 'memory' ? Infinity : undefined);
    this.epoch = new MembershipEpoch(epochs, {
      ...(epochMaxAgeMs !== undefined ? { maxAgeMs: epochMaxAgeMs } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    this.link = new MembershipCacheLink({
      onFailure: () => this.epoch.distrust(),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.cacheTimeoutMs !== undefined ? { timeoutMs: options.cacheTimeoutMs } : {}),
      ...(options.cacheRetryAfterMs !== undefined ? { retryAfterMs: options.cacheRetryAfterMs } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** Every workspace the subject is a member of (cached; at once after a change, see the class doc). */
  async workspaceIdsOf(subject: MemberSubject): Promise<string[]> {
    const keys = [
      ...(subject.accountId ? [accountMemberKey(subject.accountId)] : []),
      ...(subject.agentId ? [agentMemberKey(subject.agentId)] : []),
    ];
    const lists = await Promise.all(keys.map((key) => this.cachedList(key)));
    return [...new Set(lists.flat())].sort();
  }

  /** Whether the subject is a member of the workspace (authoritative: no cache). */
  async isMember(subject: MemberSubject, workspaceId: string): Promise<boolean> {
    return (await this.roleOf(subject, workspaceId)) !== undefined;
  }

  /**
   * The subject's role in the workspace (authoritative: no cache), or undefined when it is not a
   * member or the workspace does not exist. An agent has its account's role, or its own when it
   * was added itself (the higher of the two).
   */
  async roleOf(subject: MemberSubject, workspaceId: string): Promise<MembershipRole | undefined> {
    const ws = await this.workspaces.findById(workspaceId);
    if (!ws) return undefined;
    const roles: MembershipRole[] = [];
    if (subject.accountId) {
      if (ws.ownerAccountId === subject.accountId) return 'owner';
      const legacy = ws.members.find((m) => m.accountId === subject.accountId);
      if (legacy) roles.push(legacy.role);
    }
    const keys = [
      ...(subject.accountId ? [accountMemberKey(subject.accountId)] : []),
      ...(subject.agentId ? [agentMemberKey(subject.agentId)] : []),
    ];
    if (keys.length > 0) {
      const docs = await this.members.find({ workspaceId, memberKey: { $in: keys } });
      roles.push(...docs.map((d) => d.role));
    }
    return (['owner', 'admin', 'member'] as const).find((r) => roles.includes(r));
  }

  /**
   * Members changed while neither the cache nor the epoch could be told (both down): the change is
   * settled (told again) before this process reads their list from the cache.
   */
  private readonly unsettled = new Set<string>();

  /**
   * Call after any change of `memberKey`'s memberships (`account:<id>` or `agent:<id>`), before
   * answering: the next read of every process sharing the cache recomputes. A read racing the
   * change may store a stale list under the old generation; it is never used, because the
   * generation it carries no longer matches. When the cache cannot be told (down, or too slow),
   * the membership epoch is raised instead, in the document store: every list cached before is
   * refused from then on, so none can come back with the cache (docs/workspaces.md, "Cache").
   */
  async invalidate(memberKey: string): Promise<void> {
    const told = await this.link.attempt('invalidate', async () => {
      await this.cache.set(genKey(memberKey), randomBytes(8).toString('hex'));
      await this.cache.delete(listKey(memberKey));
    });
    if (told !== CACHE_MISSED) {
      this.unsettled.delete(memberKey);
      return;
    }
    try {
      await this.epoch.bump();
    } catch (err) {
      // Neither the cache nor the document store: the change is not settled; this process settles
      // it before it reads the member's list again (other processes: the list's 60 s TTL).
      this.unsettled.add(memberKey);
      throw err;
    }
    this.unsettled.delete(memberKey);
    this.link.countBump();
  }

  /**
   * The member's list from the cache when it is there, current (generation) and from the current
   * epoch; otherwise from the documents, cached again for the next read. While the cache fails,
   * straight from the documents (always fresh: a removal during the outage shows at once).
   */
  private async cachedList(memberKey: string): Promise<string[]> {
    if (this.link.resting) return this.fromDocuments(memberKey);
    if (this.unsettled.size > 0 && this.unsettled.has(memberKey)) {
      try {
        await this.invalidate(memberKey);
      } catch {
        return this.fromDocuments(memberKey);
      }
    }
    // The epoch is known before the list is loaded, as the generation is: a list loaded before a
    // change that raised it carries the older epoch. Both are read at once (`attempt` never
    // rejects, so `read` may wait while the epoch is awaited).
    const known = this.epoch.current();
    const read = this.link.attempt('read', () => this.cache.mget([genKey(memberKey), listKey(memberKey)]));
    const epoch = typeof known === 'number' ? known : await known;
    const cached = await read;
    if (cached === CACHE_MISSED) return this.fromDocuments(memberKey);
    const [gen = null, raw = null] = cached;
    if (raw) {
      const entry = parseEntry(raw);
      if (entry && entry.gen === gen && entry.epoch >= epoch) {
        // Written by a process that already knew a later epoch: this one learns it at once.
        this.epoch.observe(entry.epoch);
        return entry.ids;
      }
    }
    const ids = await this.load(memberKey);
    // A failed write only costs the next read a reload.
    await this.link.attempt('write', () =>
      this.cache.set(listKey(memberKey), JSON.stringify({ gen, epoch, ids }), {
        ttlMs: MEMBERSHIP_CACHE_TTL_MS,
      }),
    );
    return ids;
  }

  private async fromDocuments(memberKey: string): Promise<string[]> {
    this.link.countFallbackRead();
    return this.load(memberKey);
  }

  private async load(memberKey: string): Promise<string[]> {
    const [kind, id] = splitKey(memberKey);
    const ids = new Set<string>();
    if (kind === 'account') {
      const owned = await this.workspaces.find({
        $or: [{ ownerAccountId: id }, { 'members.accountId': id }],
      });
      for (const ws of owned) ids.add(ws._id);
    }
    const added = await this.members.find(kind === 'account' ? { accountId: id } : { agentId: id });
    for (const m of added) ids.add(m.workspaceId);
    return [...ids].sort();
  }
}

const genKey = (memberKey: string) => `wsm:gen:${memberKey}`;
const listKey = (memberKey: string) => `wsm:list:${memberKey}`;

function splitKey(memberKey: string): ['account' | 'agent', string] {
  const at = memberKey.indexOf(':');
  return [memberKey.slice(0, at) === 'agent' ? 'agent' : 'account', memberKey.slice(at + 1)];
}

function parseEntry(raw: string): z.infer<typeof CacheEntrySchema> | undefined {
  try {
    const parsed = CacheEntrySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
