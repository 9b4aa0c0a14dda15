import { membershipEpochsCollection } from './membership-epoch';
import { workspaceInvitationsCollection } from './workspace-invitations';
import { workspaceMembersCollection } from './workspace-members.collection';

/**
 * Workspaces and membership (docs/workspaces.md). No actor of its own: the front door and the
 * other domains call `workspacesApiOf(services)` / `workspaceMembershipOf(services)` directly
 * (one document read or a cache hit each).
 */
export { workspaceMembershipOf, workspacesApiOf } from './workspaces.service';
export { invitationsApiOf } from './invitations.service';
export type { MemberSubject, MembershipRole } from './workspace-membership';

/** Collections of the workspaces domain (indexes ensured at boot). */
export const workspacesCollections = [
  workspaceMembersCollection,
  membershipEpochsCollection,
  workspaceInvitationsCollection,
] as const;
