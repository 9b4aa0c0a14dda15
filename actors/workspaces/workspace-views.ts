import type { WorkspaceDocument } from '../../schemas/documents/account';
import type { WorkspaceMemberDocument } from '../../schemas/documents/workspace-member';
import type { DocumentStore } from '../../src/store/mongo';
import { accountsCollection } from '../identity/accounts.collection';
import { agentsCollection } from '../identity/agents.collection';
import type { MembershipRole } from './workspace-membership';

/* What `/api/workspaces` shows of a workspace and of its members (docs/workspaces.md). */

export interface WorkspaceView {
  id: string;
  name: string;
  isDefault: boolean;
  /** The caller's role: `owner`, `admin` or `member`. */
  role: MembershipRole;
  owned: boolean;
  createdAt: string;
}

export interface MemberView {
  /** `wsm_…`; null for the owner (who has no member document and cannot be removed). */
  id: string | null;
  kind: 'account' | 'agent';
  role: MembershipRole;
  email?: string;
  agentRef?: string;
  name?: string;
  addedAt: string;
}

/** A workspace as `caller` sees it, with its role there. */
export function workspaceView(
  ws: WorkspaceDocument,
  callerAccountId: string | undefined,
  role: MembershipRole,
): WorkspaceView {
  return {
    id: ws._id,
    name: ws.name,
    isDefault: ws.isDefault,
    role,
    owned: ws.ownerAccountId === callerAccountId,
    createdAt: ws.createdAt.toISOString(),
  };
}

/** A member document with the public names of its subject. */
export function memberView(
  doc: WorkspaceMemberDocument,
  target: { email?: string; agentRef?: string; name?: string },
): MemberView {
  return {
    id: doc._id,
    kind: doc.agentId ? 'agent' : 'account',
    role: doc.role,
    ...(target.email !== undefined ? { email: target.email } : {}),
    ...(target.agentRef !== undefined ? { agentRef: target.agentRef, name: target.name } : {}),
    addedAt: doc.createdAt.toISOString(),
  };
}

/** Member documents with their public names (email, agentRef), in the given order: two reads in all. */
export async function describeMembers(
  documents: DocumentStore,
  docs: WorkspaceMemberDocument[],
): Promise<MemberView[]> {
  const accountIds = docs.flatMap((d) => (d.accountId ? [d.accountId] : []));
  const agentIds = docs.flatMap((d) => (d.agentId ? [d.agentId] : []));
  const [accounts, agents] = await Promise.all([
    accountIds.length > 0 ? documents.repository(accountsCollection).find({ _id: { $in: accountIds } }) : [],
    agentIds.length > 0 ? documents.repository(agentsCollection).find({ _id: { $in: agentIds } }) : [],
  ]);
  const emailOf = new Map(accounts.map((a) => [a._id, a.email]));
  const agentOf = new Map(agents.map((a) => [a._id, a]));
  return docs.map((d) => {
    const agent = d.agentId ? agentOf.get(d.agentId) : undefined;
    return memberView(d, {
      email: d.accountId ? emailOf.get(d.accountId) : undefined,
      agentRef: agent?.agentRef,
      name: agent?.name,
    });
  });
}

/** The owner, who has no member document and cannot be removed (`id: null`). */
export async function ownerView(documents: DocumentStore, ws: WorkspaceDocument): Promise<MemberView> {
  const owner = await documents.repository(accountsCollection).findById(ws.ownerAccountId);
  return {
    id: null,
    kind: 'account',
    role: 'owner',
    ...(owner ? { email: owner.email } : {}),
    addedAt: ws.createdAt.toISOString(),
  };
}
