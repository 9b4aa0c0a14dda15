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
