import type { Principal } from '../../schemas/auth';
import type { WorkspaceDocument } from '../../schemas/documents/account';
import type { WorkspaceMemberDocument, WorkspaceMemberRole } from '../../schemas/documents/workspace-member';
import { errors, isAppError } from '../../schemas/errors';
import type { Services } from '../../src/boot/services';
import type { Repository } from '../../src/store/mongo';
import { newWorkspaceId } from '../identity/accounts.repo';
import { workspacesCollection } from './workspaces.collection';
import { accountsCollection } from '../identity/accounts.collection';
import { agentsCollection } from '../identity/agents.collection';
import { membershipEpochsCollection } from './membership-epochs.collection';
import { WorkspaceInvitations, type InvitationView } from './workspace-invitations';
import { workspaceInvitationsCollection } from './workspace-invitations.collection';
import { type MembershipRole, type MemberSubject, WorkspaceMembership } from './workspace-membership';
import {
  accountMemberKey,
  agentMemberKey,
  newMemberId,
  workspaceMembersCollection,
} from './workspace-members.collection';
import { WORKSPACE_LIMITS } from '../../schemas/documents/workspace-member';
import {
  describeMembers,
  memberView,
  ownerView,
  workspaceView,
  type MemberView,
  type WorkspaceView,
} from './workspace-views';

export type { MemberView, WorkspaceView } from './workspace-views';

/**
 * The workspaces resource (`/api/workspaces`, docs/workspaces.md): list the caller's workspaces,
 * create a shared one, add and remove its members. The workspace document is the identity
 * domain's (`workspaces`); members beyond the owner are `workspace_members` documents. Every
 * membership change invalidates the member's cached list (`WorkspaceMembership.invalidate`; with
 * the cache unreachable, raises the membership epoch instead) before it answers, so visibility
 * follows at once. Another account, or another account's agent, is invited rather than added: it
 * becomes a member when it accepts (workspace-invitations.ts).
 */

export type WorkspacesCaller = Principal;

export interface AddMemberInput {
  email?: string;
  agentRef?: string;
  role?: WorkspaceMemberRole;
}

const subjectOf = (caller: WorkspacesCaller): MemberSubject => ({
  ...(caller.accountId ? { accountId: caller.accountId } : {}),
  ...(caller.subjectType === 'agent' && caller.agentId ? { agentId: caller.agentId } : {}),
});

/** Changes need the account itself (its session, token or a named token): agents only read. */
function accountOf(caller: WorkspacesCaller): string {
  if (caller.subjectType !== 'account' || !caller.accountId) {
    throw errors.forbidden('Workspaces are managed by an account: use an account session or token');
  }
  return caller.accountId;
}

const notFound = () => errors.notFound('Workspace not found', { field: 'workspaceId' });

/** What `addMember` did: added at once (the owner's own agent) or invited (anyone else). */
export type AddMemberResult = { member: MemberView } | { invitation: InvitationView };

/** A member to add: an account, or one agent. */
export interface NewMember {
  accountId?: string;
  agentId?: string;
  email?: string;
  agentRef?: string;
  name?: string;
}

export class WorkspacesApi {
  readonly membership: WorkspaceMembership;
  readonly invitations: WorkspaceInvitations;
  private readonly workspaces: Repository<WorkspaceDocument>;
  private readonly members: Repository<WorkspaceMemberDocument>;

  constructor(private readonly services: Services) {
    const { documents, cache, logger } = services;
    this.workspaces = documents.repository(workspacesCollection);
    this.members = documents.repository(workspaceMembersCollection);
    this.membership = new WorkspaceMembership(
      this.workspaces,
      this.members,
      documents.repository(membershipEpochsCollection),
      cache,
      { logger: logger.child({ component: 'workspaces' }) },
    );
    this.invitations = new WorkspaceInvitations({
      invitations: documents.repository(workspaceInvitationsCollection),
      workspaces: this.workspaces,
      accounts: documents.repository(accountsCollection),
      agents: documents.repository(agentsCollection),
    });
  }

  /** The caller's workspaces (owned and joined), by name then id. */
  async list(caller: WorkspacesCaller): Promise<WorkspaceView[]> {
    const subject = subjectOf(caller);
    const ids = await this.membership.workspaceIdsOf(subject);
    if (ids.length === 0) return [];
    const docs = await this.workspaces.find({ _id: { $in: ids } });
    const views = await Promise.all(
      docs.map(async (ws) =>
        this.view(ws, caller, (await this.membership.roleOf(subject, ws._id)) ?? 'member'),
      ),
    );
    return views.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** One workspace and its members (and, for its owner, the pending invitations); 404 unless a member. */
  async get(caller: WorkspacesCaller, workspaceId: string) {
    const { ws, role } = await this.memberOf(caller, workspaceId);
    return {
      workspace: this.view(ws, caller, role),
      members: await this.memberViews(ws),
      ...(role === 'owner' ? { invitations: await this.invitations.pendingOf(ws._id) } : {}),
    };
  }

  /** A new shared workspace owned by the calling account. */
  async create(caller: WorkspacesCaller, input: { name: string }): Promise<WorkspaceView> {
    const accountId = accountOf(caller);
    const owned = await this.workspaces.count({ ownerAccountId: accountId, isDefault: false });
    if (owned >= WORKSPACE_LIMITS.maxOwnedPerAccount) {
      throw errors.conflict(
        `An account owns at most ${WORKSPACE_LIMITS.maxOwnedPerAccount} shared workspaces`,
        {
          limit: WORKSPACE_LIMITS.maxOwnedPerAccount,
        },
      );
    }
    const ws = await this.workspaces.insert({
      _id: newWorkspaceId(),
      ownerAccountId: accountId,
      name: input.name,
      isDefault: false,
      members: [{ accountId, role: 'owner' }],
      createdAt: new Date(),
      version: 0,
    });
    await this.membership.invalidate(accountMemberKey(accountId));
    return this.view(ws, caller, 'owner');
  }

  /**
   * The owner adds one of its own agents (by `agentRef`) at once; any other account (by email) or
   * agent (by `agentRef`) is invited (docs/workspaces.md, "Invitations"). An invitation's answer
   * says nothing about the invitee, not even whether it exists.
   */
  async addMember(
    caller: WorkspacesCaller,
    workspaceId: string,
    input: AddMemberInput,
  ): Promise<AddMemberResult> {
    const accountId = accountOf(caller);
    const { ws, role } = await this.memberOf(caller, workspaceId);
    if (role !== 'owner') throw errors.forbidden("Only the workspace's owner manages its members");
    const given = input.role ?? 'member';
    const taken = (await this.members.count({ workspaceId })) + (await this.invitations.count(workspaceId));
    if (taken >= WORKSPACE_LIMITS.maxMembers) {
      throw errors.conflict(
        `A workspace has at most ${WORKSPACE_LIMITS.maxMembers} members and invitations`,
        {
          limit: WORKSPACE_LIMITS.maxMembers,
        },
      );
    }
    const accounts = this.services.documents.repository(accountsCollection);
    if (input.email !== undefined) {
      const email = input.email.trim().toLowerCase();
      const owner = await accounts.findById(ws.ownerAccountId);
      if (owner?.email === email)
        throw errors.conflict('This account owns the workspace', { field: 'email' });
      const account = await accounts.findOne({ email });
      if (account && (await this.isMemberDoc(workspaceId, accountMemberKey(account._id)))) {
        throw errors.conflict('Already a member of this workspace', { field: 'email' });
      }
      return { invitation: await this.invitations.invite(workspaceId, accountId, { email }, given) };
    }
    const agentRef = input.agentRef ?? '';
    const agent = await this.services.documents.repository(agentsCollection).findOne({ agentRef });
    if (agent?.accountId === accountId) {
      const target = { agentId: agent._id, agentRef: agent.agentRef, name: agent.name };
      return { member: await this.insertMember(workspaceId, target, given, accountId) };
    }
    if (agent && (await this.isMemberDoc(workspaceId, agentMemberKey(agent._id)))) {
      throw errors.conflict('Already a member of this workspace', { field: 'agentRef' });
    }
    return { invitation: await this.invitations.invite(workspaceId, accountId, { agentRef }, given) };
  }

  private async isMemberDoc(workspaceId: string, memberKey: string): Promise<boolean> {
    return (await this.members.findOne({ workspaceId, memberKey })) !== null;
  }

  workspaceById(workspaceId: string): Promise<WorkspaceDocument | null> {
    return this.workspaces.findById(workspaceId);
  }

  /** The view of `target`'s member document in the workspace, if there is one. */
  async existingMember(workspaceId: string, target: NewMember): Promise<MemberView | undefined> {
    const memberKey = target.accountId ? accountMemberKey(target.accountId) : agentMemberKey(target.agentId!);
    const doc = await this.members.findOne({ workspaceId, memberKey });
    return doc ? memberView(doc, target) : undefined;
  }

  /**
   * Writes a member (an added own agent, an accepted invitation) and invalidates its cached
   * membership before answering. A member already there is 409.
   */
  async insertMember(
    workspaceId: string,
    target: NewMember,
    role: WorkspaceMemberRole,
    addedBy: string,
  ): Promise<MemberView> {
    const memberKey = target.accountId ? accountMemberKey(target.accountId) : agentMemberKey(target.agentId!);
    let doc: WorkspaceMemberDocument;
    try {
      doc = await this.members.insertUnique({
        _id: newMemberId(),
        workspaceId,
        memberKey,
        ...(target.accountId ? { accountId: target.accountId } : { agentId: target.agentId }),
        role,
        addedBy,
        createdAt: new Date(),
      });
    } catch (err) {
      if (isAppError(err) && err.code === 'CONFLICT') {
        throw errors.conflict('Already a member of this workspace', {
          field: target.accountId ? 'email' : 'agentRef',
        });
      }
      throw err;
    }
    await this.membership.invalidate(memberKey);
    return memberView(doc, target);
  }

  /** Removes a member: the owner removes anyone, a member may remove itself (leave). */
  async removeMember(caller: WorkspacesCaller, workspaceId: string, memberId: string): Promise<MemberView> {
    accountOf(caller);
    const { role } = await this.memberOf(caller, workspaceId);
    const doc = await this.members.findOne({ _id: memberId, workspaceId });
    if (!doc) throw errors.notFound('Member not found', { field: 'memberId' });
    const self = doc.accountId !== undefined && doc.accountId === caller.accountId;
    if (role !== 'owner' && !self) throw errors.forbidden("Only the workspace's owner manages its members");
    if (!(await this.members.deleteOne({ _id: doc._id }))) {
      throw errors.notFound('Member not found', { field: 'memberId' });
    }
    await this.membership.invalidate(doc.memberKey);
    const [view] = await this.describe([doc]);
    return view!;
  }

  /** The workspace and the caller's role; 404 for a workspace that does not exist or is not the caller's. */
  async memberOf(caller: WorkspacesCaller, workspaceId: string) {
    const ws = await this.workspaces.findById(workspaceId);
    const role = ws ? await this.membership.roleOf(subjectOf(caller), workspaceId) : undefined;
    if (!ws || !role) throw notFound();
    return { ws, role };
  }

  view(ws: WorkspaceDocument, caller: WorkspacesCaller, role: MembershipRole): WorkspaceView {
    return workspaceView(ws, caller.accountId, role);
  }

  private describe(docs: WorkspaceMemberDocument[]): Promise<MemberView[]> {
    return describeMembers(this.services.documents, docs);
  }

  private async memberViews(ws: WorkspaceDocument): Promise<MemberView[]> {
    const owner = await ownerView(this.services.documents, ws);
    const docs = await this.members.find({ workspaceId: ws._id }, { sort: { createdAt: 1, _id: 1 } });
    return [owner, ...(await this.describe(docs))];
  }
}
