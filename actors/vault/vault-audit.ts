import type { Filter } from 'mongodb';
import type { Principal } from '../../schemas/auth';
import type {
  AuditActor,
  VaultAuditDocument,
  VaultAuditEvent,
  VaultSubjectType,
} from '../../schemas/documents/vault';
import type { AuditEntryView, AuditQuery } from '../../schemas/http/vault';
import type { RuntimeAuth } from '../../schemas/messages/vault';
import type { Repository } from '../../src/store/mongo';
import { auditEntryView, newAuditId } from './vault.collection';

/** One event to record; never a value (there is no field for one). */
export interface AuditEvent {
  accountId: string;
  workspaceId: string;
  event: VaultAuditEvent;
  secretName: string;
  secretId?: string;
  grantId?: string;
  subjectType?: VaultSubjectType;
  subjectId?: string;
  actor: AuditActor;
  reason?: string;
}

/** The system as an actor of the log: `panic` (revoked by a workspace panic) or `expiry` (the sweep). */
export const systemActor = (ref: 'panic' | 'expiry'): AuditActor => ({ kind: 'system', ref });

/** A runtime credential as an actor of the log: its public id. */
export const runtimeActor = (auth: RuntimeAuth): AuditActor => ({ kind: 'runtime', ref: auth.credentialId });

/**
 * A user principal as an actor of the log, with a public reference only: the named token id, or
 * the agent's `agentRef` (looked up; never the internal agent or account id).
 */
export async function principalActor(
  principal: Principal,
  agentRefOf: (agentId: string) => Promise<string | undefined>,
): Promise<AuditActor> {
  if (principal.subjectType === 'agent') {
    const ref = principal.agentId ? await agentRefOf(principal.agentId) : undefined;
    return { kind: 'agent', via: principal.via, ...(ref ? { ref } : {}) };
  }
  if (principal.tokenId) return { kind: 'named_token', via: principal.via, ref: principal.tokenId };
  return { kind: 'account', via: principal.via };
}

/** The vault audit log (`vault_audit`): append, and read an account's entries newest first. */
export class VaultAuditLog {
  constructor(
    private readonly repo: Repository<VaultAuditDocument>,
    private readonly now: () => Date,
  ) {}

  async record(event: AuditEvent): Promise<void> {
    const at = this.now();
    await this.repo.insert({ _id: newAuditId(at), ...event, at });
  }

  /** A page of the account's entries, newest first; `nextCursor` is the last id, null at the end. */
  async list(
    accountId: string,
    query: AuditQuery,
  ): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
    const filter: Filter<VaultAuditDocument> = { accountId };
    if (query.workspaceId) filter.workspaceId = query.workspaceId;
    if (query.event) filter.event = query.event;
    if (query.cursor) filter._id = { $lt: query.cursor };
    // One more than the page tells whether there is a next page.
    const docs = await this.repo.find(filter, { sort: { _id: -1 }, limit: query.limit + 1 });
    const page = docs.slice(0, query.limit);
    return {
      entries: page.map(auditEntryView),
      nextCursor: docs.length > query.limit ? page[page.length - 1]._id : null,
    };
  }
}
