import type { Principal } from '../../schemas/auth';
import { errors, isAppError } from '../../schemas/errors';
import type { InvitationView, ReceivedInvitationView } from './workspace-invitations';
import type { MemberView, WorkspacesApi } from './workspaces.service';

/**
 * The invitee's side of workspace invitations (`/api/workspace-invitations`, docs/workspaces.md,
 * "Invitations") and the owner's withdrawal. Accepting makes the member (an account, or one of
 * the caller's agents) and invalidates its cached membership before answering: the workspace's
 * files and memory show at once. Declining leaves no trace.
 */

export type InvitationAnswer =
  | { accepted: true; workspace: { id: string; name: string }; member: MemberView }
  | { accepted: false; invitation: { id: string; status: 'declined' } };

export class InvitationsApi {
  constructor(private readonly api: WorkspacesApi) {}

  /** The invitations the caller may answer, oldest first. */
  received(caller: Principal): Promise<ReceivedInvitationView[]> {
    return this.api.invitations.received(caller);
  }

  /** Accepts or declines; 404 for an invitation the caller may not answer (or that is gone). */
  async answer(
    caller: Principal,
    invitationId: string,
    action: 'accept' | 'decline',
  ): Promise<InvitationAnswer> {
    const invitations = this.api.invitations;
    const { invitation, invitee } = await invitations.answerable(caller, invitationId);
    // Claimed first: of two racing answers (or an answer and a withdrawal) one wins.
    if (!(await invitations.settle(invitation._id))) {
      throw errors.notFound('Invitation not found', { field: 'invitationId' });
    }
    if (action === 'decline')
      return { accepted: false, invitation: { id: invitation._id, status: 'declined' } };
    const ws = await this.api.workspaceById(invitation.workspaceId);
    if (!ws) throw errors.notFound('Workspace not found', { field: 'workspaceId' });
    const target =
      'agent' in invitee
        ? { agentId: invitee.agent._id, agentRef: invitee.agent.agentRef, name: invitee.agent.name }
        : { accountId: invitee.accountId, email: invitee.email };
    let member: MemberView;
    try {
      member = await this.api.insertMember(ws._id, target, invitation.role, invitation.invitedBy);
    } catch (err) {
      // Already a member (added meanwhile): the acceptance changes nothing.
      if (!(isAppError(err) && err.code === 'CONFLICT')) throw err;
      const existing = await this.api.existingMember(ws._id, target);
      if (!existing) throw err;
      member = existing;
    }
    return { accepted: true, workspace: { id: ws._id, name: ws.name }, member };
  }

  /** The owner withdraws a pending invitation. */
  async revoke(caller: Principal, workspaceId: string, invitationId: string): Promise<InvitationView> {
    if (caller.subjectType !== 'account' || !caller.accountId) {
      throw errors.forbidden('Workspaces are managed by an account: use an account session or token');
    }
    const { role } = await this.api.memberOf(caller, workspaceId);
    if (role !== 'owner') throw errors.forbidden("Only the workspace's owner manages its members");
    return this.api.invitations.revoke(workspaceId, invitationId);
  }
}
