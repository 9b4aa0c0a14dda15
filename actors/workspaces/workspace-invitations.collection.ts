import { WorkspaceInvitationDocumentSchema } from '../../schemas/documents/workspace-invitation';
import { defineCollection } from '../../src/store/mongo';

export const workspaceInvitationsCollection = defineCollection({
  name: 'workspace_invitations',
  schema: WorkspaceInvitationDocumentSchema,
  indexes: [
    // One pending invitation per invitee and workspace: a second is 409.
    { key: { workspaceId: 1, inviteeKey: 1 }, name: 'workspace_invitee_unique', unique: true },
    // "What am I invited to": the invitee's listing.
    { key: { inviteeKey: 1 }, name: 'invitee' },
  ],
});
