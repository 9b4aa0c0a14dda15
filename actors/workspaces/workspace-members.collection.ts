import { randomBytes } from 'node:crypto';
import { WorkspaceMemberDocumentSchema } from '../../schemas/documents/workspace-member';
import { defineCollection } from '../../src/store/mongo';

/** `workspace_members`: who besides the owner belongs to a workspace (docs/workspaces.md). */
export const workspaceMembersCollection = defineCollection({
  name: 'workspace_members',
  schema: WorkspaceMemberDocumentSchema,
  indexes: [
    // A member is added once: two racing adds of one member are one document (409 for the loser).
    { key: { workspaceId: 1, memberKey: 1 }, name: 'workspace_member_unique', unique: true },
    // "Which workspaces is this account / agent in": the hot read of every listing.
    {
      key: { accountId: 1 },
      name: 'member_account',
      partialFilterExpression: { accountId: { $type: 'string' } },
    },
    { key: { agentId: 1 }, name: 'member_agent', partialFilterExpression: { agentId: { $type: 'string' } } },
  ],
});

export function newMemberId(): string {
  return `wsm_${randomBytes(12).toString('hex')}`;
}

/** The unique key of a member within a workspace. */
export const accountMemberKey = (accountId: string) => `account:${accountId}`;
export const agentMemberKey = (agentId: string) => `agent:${agentId}`;
