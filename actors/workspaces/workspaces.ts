import { membershipEpochsCollection } from './membership-epochs.collection';
import { workspaceInvitationsCollection } from './workspace-invitations.collection';
import { workspaceMembersCollection } from './workspace-members.collection';

/**
 * Workspaces and membership (docs/workspaces.md). No actor of its own: the front door and the
 * other domains call `services.workspaces` / `services.workspaces.membership` directly
 * (one document read or a cache hit each).
 */
export { WorkspacesApi } from './workspaces.service';
export { InvitationsApi } from './invitations.service';
export type { MemberSubject, MembershipRole } from './workspace-membership';

/** Collections of the workspaces domain (indexes ensured at boot). */
export const workspacesCollections = [
  workspaceMembersCollection,
  membershipEpochsCollection,
  workspaceInvitationsCollection,
] as const;
