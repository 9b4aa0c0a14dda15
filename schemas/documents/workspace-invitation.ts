import { z } from 'zod';
import { WorkspaceMemberRoleSchema } from './workspace-member';

/**
 * A pending invitation to a workspace (collection `workspace_invitations`, docs/workspaces.md,
 * "Invitations"). Another account, or an agent of another account, becomes a member only once
 * the invitee accepts; until then the invitation grants nothing. It names its invitee the way the
 * owner did (`email` or `agentRef`), resolved only when someone answers it: the owner's answer and
 * the owner's view never tell whether such an account or agent exists. Accepted, declined and
 * revoked invitations are deleted (an accepted one becomes a `workspace_members` document).
 */
export const WorkspaceInvitationDocumentSchema = z.object({
  /** Public id `wsi_<24 hex>` (random). */
  _id: z.string().regex(/^wsi_[a-f0-9]{24}$/),
  workspaceId: z.string().min(1),
  kind: z.enum(['account', 'agent']),
  /** The invitee as named: `email:<lower-cased email>` or `agent:<agentRef>`; unique per workspace. */
  inviteeKey: z.string().min(1),
  /** The invited account's email (kind account), lower-cased. */
  email: z.string().optional(),
  /** The invited agent's public reference (kind agent). */
  agentRef: z.string().optional(),
  role: WorkspaceMemberRoleSchema,
  /** The inviting account (the workspace's owner; internal id). */
  invitedBy: z.string().min(1),
  createdAt: z.date(),
});
export type WorkspaceInvitationDocument = z.infer<typeof WorkspaceInvitationDocumentSchema>;
