import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { WorkspaceDocument } from '../../schemas/documents/account';
import type { WorkspaceMemberDocument } from '../../schemas/documents/workspace-member';
import type { CachePort } from '../../src/store/cache';
import type { Repository } from '../../src/store/mongo';
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
 */

/** Who is asking: the internal ids of an authenticated principal. */
export interface MemberSubject {
  accountId?: string;
  agentId?: string;
}

export type MembershipRole = 'owner' | 'admin' | 'member';

/** How long a cached membership list may live: the bound of staleness if an invalidation is lost. */
export const MEMBERSHIP_CACHE_TTL_MS = 60_000;

const CacheEntrySchema = z.object({ gen: z.string().nullable(), ids: z.array(z.string()) });

export class WorkspaceMembership {
  constructor(
    private readonly workspaces: Repository<WorkspaceDocument>,
    private readonly members: Repository<WorkspaceMemberDocument>,
    private readonly cache: CachePort,
  ) {}

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
   * Call after any change of `memberKey`'s memberships (`account:<id>` or `agent:<id>`), before
   * answering: the next read of every process sharing the cache recomputes. A read racing the
   * change may store a stale list under the old generation; it is never used, because the
   * generation it carries no longer matches.
   */
  async invalidate(memberKey: string): Promise<void> {
    await this.cache.set(genKey(memberKey), randomBytes(8).toString('hex'));
    await this.cache.delete(listKey(memberKey));
  }

  private async cachedList(memberKey: string): Promise<string[]> {
    const [gen, raw] = await this.cache.mget([genKey(memberKey), listKey(memberKey)]);
    if (raw) {
      const entry = parseEntry(raw);
      if (entry && entry.gen === gen) return entry.ids;
    }
    const ids = await this.load(memberKey);
    await this.cache.set(listKey(memberKey), JSON.stringify({ gen, ids }), {
      ttlMs: MEMBERSHIP_CACHE_TTL_MS,
    });
    return ids;
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
