import { randomBytes } from 'node:crypto';
import type { Principal } from '../../schemas/auth';
import type { AccountDocument, WorkspaceDocument } from '../../schemas/documents/account';
import type { AgentDocument } from '../../schemas/documents/agent';
import { type WorkspaceInvitationDocument } from '../../schemas/documents/workspace-invitation';
import type { WorkspaceMemberRole } from '../../schemas/documents/workspace-member';
import { errors, isAppError } from '../../schemas/errors';
import { type Repository } from '../../src/store/mongo';

/**
 * Invitations to a workspace (docs/workspaces.md, "Invitations"): membership of another account,
 * or of another account's agent, needs the invitee's consent. The owner's `POST …/members` makes
 * an invitation; the invitee lists it (`GET /api/workspace-invitations`) and accepts or declines
 * it. Until it accepts, nothing of the workspace reaches it (an invitation is no membership), and
 * the owner learns nothing about it: the answer and the owner's view repeat what the owner gave
 * (the email, the `agentRef`), the same whether or not such an account or agent exists.
 */

export const newInvitationId = () => `wsi_${randomBytes(12).toString('hex')}`;
export const emailInviteeKey = (email: string) => `email:${email}`;
export const agentInviteeKey = (agentRef: string) => `agent:${agentRef}`;

/** An invitation as its workspace's owner sees it: what the owner gave, nothing more. */
export interface InvitationView {
  id: string;
  kind: 'account' | 'agent';
  role: WorkspaceMemberRole;
  email?: string;
  agentRef?: string;
  status: 'pending';
  invitedAt: string;
}

/** An invitation as its invitee sees it: the workspace, who invites, and for which of its agents. */
export interface ReceivedInvitationView {
  id: string;
  kind: 'account' | 'agent';
  role: WorkspaceMemberRole;
  workspace: { id: string; name: string };
  invitedBy: { email: string | null };
  agentRef?: string;
  invitedAt: string;
}

/** Who accepts: the member to add. */
export type Invitee = { accountId: string; email: string } | { agent: AgentDocument };

export interface InvitationStores {
  invitations: Repository<WorkspaceInvitationDocument>;
  workspaces: Repository<WorkspaceDocument>;
  accounts: Repository<AccountDocument>;
  agents: Repository<AgentDocument>;
}

const notFound = () => errors.notFound('Invitation not found', { field: 'invitationId' });

export function invitationView(doc: WorkspaceInvitationDocument): InvitationView {
  return {
    id: doc._id,
    kind: doc.kind,
    role: doc.role,
    ...(doc.email !== undefined ? { email: doc.email } : {}),
    ...(doc.agentRef !== undefined ? { agentRef: doc.agentRef } : {}),
    status: 'pending',
    invitedAt: doc.createdAt.toISOString(),
  };
}

export class WorkspaceInvitations {
  constructor(private readonly stores: InvitationStores) {}

  /** A new pending invitation of `workspaceId` (the caller checked it is the owner's). */
  async invite(
    workspaceId: string,
    invitedBy: string,
    target: { email: string } | { agentRef: string },
    role: WorkspaceMemberRole,
  ): Promise<InvitationView> {
    const named =
      'email' in target
        ? { kind: 'account' as const, inviteeKey: emailInviteeKey(target.email), email: target.email }
        : { kind: 'agent' as const, inviteeKey: agentInviteeKey(target.agentRef), agentRef: target.agentRef };
    try {
      const doc = await this.stores.invitations.insertUnique({
        _id: newInvitationId(),
        workspaceId,
        ...named,
        role,
        invitedBy,
        createdAt: new Date(),
      });
      return invitationView(doc);
    } catch (err) {
      if (isAppError(err) && err.code === 'CONFLICT') {
        throw errors.conflict('Already invited to this workspace', {
          field: named.kind === 'account' ? 'email' : 'agentRef',
        });
      }
      throw err;
    }
  }

  /** The pending invitations of a workspace, oldest first (for its owner). */
  async pendingOf(workspaceId: string): Promise<InvitationView[]> {
    const docs = await this.stores.invitations.find({ workspaceId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(invitationView);
  }

  count(workspaceId: string): Promise<number> {
    return this.stores.invitations.count({ workspaceId });
  }

  /** Withdraws a pending invitation (its owner); 404 when there is none. */
  async revoke(workspaceId: string, invitationId: string): Promise<InvitationView> {
    const doc = await this.stores.invitations.findOne({ _id: invitationId, workspaceId });
    if (!doc || !(await this.stores.invitations.deleteOne({ _id: doc._id }))) throw notFound();
    return invitationView(doc);
  }

  /**
   * The invitations the caller may answer: an account's own (by its email) and those of its
   * agents (by their `agentRef`); a self-registered agent's own. An agent of an account answers
   * none: its account decides for it.
   */
  async received(caller: Principal): Promise<ReceivedInvitationView[]> {
    const keys: string[] = [];
    if (caller.subjectType === 'account' && caller.accountId) {
      const account = await this.stores.accounts.findById(caller.accountId);
      if (account) keys.push(emailInviteeKey(account.email));
      const agents = await this.stores.agents.find({ accountId: caller.accountId });
      keys.push(...agents.map((a) => agentInviteeKey(a.agentRef)));
    } else if (caller.subjectType === 'agent' && caller.agentId && !caller.accountId) {
      const agent = await this.stores.agents.findById(caller.agentId);
      if (agent) keys.push(agentInviteeKey(agent.agentRef));
    }
    if (keys.length === 0) return [];
    const docs = await this.stores.invitations.find(
      { inviteeKey: { $in: keys } },
      { sort: { createdAt: 1, _id: 1 } },
    );
    if (docs.length === 0) return [];
    const [workspaces, inviters] = await Promise.all([
      this.stores.workspaces.find({ _id: { $in: [...new Set(docs.map((d) => d.workspaceId))] } }),
      this.stores.accounts.find({ _id: { $in: [...new Set(docs.map((d) => d.invitedBy))] } }),
    ]);
    const nameOf = new Map(workspaces.map((w) => [w._id, w.name]));
    const emailOf = new Map(inviters.map((a) => [a._id, a.email]));
    return docs
      .filter((d) => nameOf.has(d.workspaceId))
      .map((d) => ({
        id: d._id,
        kind: d.kind,
        role: d.role,
        workspace: { id: d.workspaceId, name: nameOf.get(d.workspaceId)! },
        invitedBy: { email: emailOf.get(d.invitedBy) ?? null },
        ...(d.agentRef !== undefined ? { agentRef: d.agentRef } : {}),
        invitedAt: d.createdAt.toISOString(),
      }));
  }

  /**
   * The invitation `invitationId` if the caller may answer it, with the member it would add;
   * 404 otherwise (an invitation of someone else reads as one that does not exist).
   */
  async answerable(
    caller: Principal,
    invitationId: string,
  ): Promise<{ invitation: WorkspaceInvitationDocument; invitee: Invitee }> {
    const invitation = await this.stores.invitations.findById(invitationId);
    if (!invitation) throw notFound();
    if (invitation.kind === 'account') {
      if (caller.subjectType !== 'account' || !caller.accountId) throw notFound();
      const account = await this.stores.accounts.findById(caller.accountId);
      if (!account || account.email !== invitation.email) throw notFound();
      return { invitation, invitee: { accountId: account._id, email: account.email } };
    }
    const agent = await this.stores.agents.findOne({ agentRef: invitation.agentRef ?? '' });
    if (!agent) throw notFound();
    const decides = agent.accountId
      ? caller.subjectType === 'account' && caller.accountId === agent.accountId
      : caller.subjectType === 'agent' && caller.agentId === agent._id;
    if (!decides) throw notFound();
    return { invitation, invitee: { agent } };
  }

  /** Removes an answered invitation; false when another answer removed it first. */
  settle(invitationId: string): Promise<boolean> {
    return this.stores.invitations.deleteOne({ _id: invitationId });
  }
}
