import { z } from 'zod';
import { displayNameSchema } from '../display-text';
import { WORKSPACE_LIMITS, WorkspaceMemberRoleSchema } from '../documents/workspace-member';

/** `/api/workspaces` and `/api/workspace-invitations` (docs/workspaces.md): ids and bodies. */

/** A workspace id as handed out (`ws_…`); anything else is a malformed request, not a lookup. */
export const WorkspaceIdSchema = z
  .string()
  .regex(/^ws_[A-Za-z0-9_-]{1,100}$/, 'must be a workspace id (ws_…)');
export const MemberIdSchema = z.string().regex(/^wsm_[a-f0-9]{24}$/, 'must be a member id (wsm_…)');
export const InvitationIdSchema = z.string().regex(/^wsi_[a-f0-9]{24}$/, 'must be an invitation id (wsi_…)');

export const WorkspaceCreateBodySchema = z.object({
  name: displayNameSchema(WORKSPACE_LIMITS.maxName),
});

export const WorkspaceAddMemberBodySchema = z
  .object({
    email: z.string().trim().email().max(320).optional(),
    agentRef: z.string().startsWith('agref-').max(200).optional(),
    /** Synonym of `agentRef`: the public id of an agent. */
    agentId: z.string().startsWith('agref-').max(200).optional(),
    role: WorkspaceMemberRoleSchema.default('member'),
  })
  .strict()
  .refine((b) => [b.email, b.agentRef ?? b.agentId].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of email or agentRef',
    path: ['email'],
  });

// ---- responses ----

/** A workspace as the caller sees it (actors/workspaces/workspaces.service.ts `view`). */
export const WorkspaceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  /** The caller's role. */
  role: z.enum(['owner', 'admin', 'member']),
  owned: z.boolean(),
  createdAt: z.string(),
});

const MemberRoleViewSchema = z.enum(['owner', 'admin', 'member']);

/** A member (actors/workspaces/workspace-views.ts `MemberView`); the owner has `id: null`. */
export const MemberViewSchema = z.object({
  id: z.string().nullable(),
  kind: z.enum(['account', 'agent']),
  role: MemberRoleViewSchema,
  email: z.string().optional(),
  agentRef: z.string().optional(),
  name: z.string().optional(),
  addedAt: z.string(),
});

/** A pending invitation as its workspace's owner sees it (workspace-invitations.ts `InvitationView`). */
export const InvitationViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['account', 'agent']),
  role: WorkspaceMemberRoleSchema,
  email: z.string().optional(),
  agentRef: z.string().optional(),
  status: z.literal('pending'),
  invitedAt: z.string(),
});

/** An invitation as its invitee sees it (`ReceivedInvitationView`). */
export const ReceivedInvitationViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['account', 'agent']),
  role: WorkspaceMemberRoleSchema,
  workspace: z.object({ id: z.string(), name: z.string() }),
  invitedBy: z.object({ email: z.string().nullable() }),
  agentRef: z.string().optional(),
  invitedAt: z.string(),
});

/** `GET /api/workspaces/:id`: `invitations` for the owner only. */
export const WorkspaceDetailResponseSchema = z.object({
  workspace: WorkspaceViewSchema,
  members: z.array(MemberViewSchema),
  invitations: z.array(InvitationViewSchema).optional(),
});
export const WorkspaceListResponseSchema = z.object({ workspaces: z.array(WorkspaceViewSchema) });
export const WorkspaceResponseSchema = z.object({ workspace: WorkspaceViewSchema });
/** `POST …/members`: 201 with the member (the owner's own agent), 202 with the invitation. */
export const MemberAddedResponseSchema = z.object({ member: MemberViewSchema });
export const InvitationSentResponseSchema = z.object({ invitation: InvitationViewSchema });
export const MemberRemovedResponseSchema = z.object({ removed: z.literal(true), member: MemberViewSchema });
export const InvitationRevokedResponseSchema = z.object({
  revoked: z.literal(true),
  invitation: InvitationViewSchema,
});
export const ReceivedInvitationsResponseSchema = z.object({
  invitations: z.array(ReceivedInvitationViewSchema),
});
/** Accept: the workspace and the member made; decline: the invitation, declined. */
export const InvitationAnswerResponseSchema = z.union([
  z.object({
    accepted: z.literal(true),
    workspace: z.object({ id: z.string(), name: z.string() }),
    member: MemberViewSchema,
  }),
  z.object({
    accepted: z.literal(false),
    invitation: z.object({ id: z.string(), status: z.literal('declined') }),
  }),
]);
