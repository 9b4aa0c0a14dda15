import { z } from 'zod';

/**
 * A member of a shared workspace (collection `workspace_members`, docs/workspaces.md). The
 * workspace itself (name, owner) is the `workspaces` document of the identity domain; its owner is
 * a member without a document here. One document per (workspace, member): an account (`email` at
 * the route) or a single agent (`agentRef` at the route).
 */
export const WorkspaceMemberRoleSchema = z.enum(['admin', 'member']);
export type WorkspaceMemberRole = z.infer<typeof WorkspaceMemberRoleSchema>;

export const WorkspaceMemberDocumentSchema = z.object({
  /** Public id `wsm_<24 hex>` (random: nothing internal can be read from it). */
  _id: z.string().regex(/^wsm_[a-f0-9]{24}$/),
  workspaceId: z.string().min(1),
  /** `account:<accountId>` or `agent:<agentId>`: unique per workspace (index `workspace_member_unique`). */
  memberKey: z.string().min(1),
  /** The member account (internal id), when the member is an account. */
  accountId: z.string().optional(),
  /** The member agent (internal id), when the member is one agent. */
  agentId: z.string().optional(),
  role: WorkspaceMemberRoleSchema,
  /** The account that added the member (the workspace's owner). */
  addedBy: z.string().min(1),
  createdAt: z.date(),
});
export type WorkspaceMemberDocument = z.infer<typeof WorkspaceMemberDocumentSchema>;

export const WORKSPACE_LIMITS = Object.freeze({
  /** Characters of a workspace name (trimmed). */
  maxName: 120,
  /** Shared workspaces one account may own (its default one not counted). */
  maxOwnedPerAccount: 100,
  /** Members of one workspace, its owner not counted. */
  maxMembers: 200,
});
