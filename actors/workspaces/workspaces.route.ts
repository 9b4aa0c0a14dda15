import { z } from 'zod';
import type { InvitationsApi } from './invitations.service';
import type { WorkspacesApi } from './workspaces.service';
import { errors } from '../../schemas/errors';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import { parseBody } from '../../src/http/validation';
import {
  InvitationAnswerResponseSchema,
  InvitationIdSchema,
  InvitationRevokedResponseSchema,
  InvitationSentResponseSchema,
  MemberAddedResponseSchema,
  MemberIdSchema,
  MemberRemovedResponseSchema,
  ReceivedInvitationsResponseSchema,
  WorkspaceAddMemberBodySchema,
  WorkspaceCreateBodySchema,
  WorkspaceDetailResponseSchema,
  WorkspaceIdSchema,
  WorkspaceListResponseSchema,
  WorkspaceResponseSchema,
} from '../../schemas/http/workspaces';

/** What the workspaces routes read from the process's services. */
interface WorkspacesRouteServices {
  readonly workspaces: WorkspacesApi;
  readonly invitations: InvitationsApi;
}

function param(schema: z.ZodString, value: unknown, field: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw errors.validation(`Invalid ${field}: ${parsed.error.issues[0]?.message}`, { field });
  return parsed.data;
}

function apiOf(deps: ResolvedAppDeps<WorkspacesRouteServices>) {
  if (!deps.services) throw errors.unavailable('Workspaces are not available on this node');
  return deps.services.workspaces;
}

function invitationsOf(deps: ResolvedAppDeps<WorkspacesRouteServices>) {
  if (!deps.services) throw errors.unavailable('Workspaces are not available on this node');
  return deps.services.invitations;
}

/**
 * `/api/workspaces` (docs/workspaces.md): the caller's workspaces, shared workspaces and their
 * members. Membership decides what `workspace` visibility shows in files, memory and the vault.
 * Every answer is parsed with its response schema (the contract's), so what leaves is what the
 * OpenAPI document says.
 */
export const workspacesRoute: RouteModule<WorkspacesRouteServices> = (router, deps) => {
  router.get('/api/workspaces', deps.requireAuth, async (_req, res) => {
    res.json(
      WorkspaceListResponseSchema.parse({ workspaces: await apiOf(deps).list(requirePrincipal(res)) }),
    );
  });

  router.post('/api/workspaces', deps.requireAuth, async (req, res) => {
    const caller = requirePrincipal(res);
    const body = parseBody(WorkspaceCreateBodySchema, req);
    res
      .status(201)
      .json(WorkspaceResponseSchema.parse({ workspace: await apiOf(deps).create(caller, body) }));
  });

  router.get('/api/workspaces/:workspaceId', deps.requireAuth, async (req, res) => {
    const caller = requirePrincipal(res);
    const workspaceId = param(WorkspaceIdSchema, req.params.workspaceId, 'workspaceId');
    res.json(WorkspaceDetailResponseSchema.parse(await apiOf(deps).get(caller, workspaceId)));
  });

  router.post('/api/workspaces/:workspaceId/members', deps.requireAuth, async (req, res) => {
    const caller = requirePrincipal(res);
    const workspaceId = param(WorkspaceIdSchema, req.params.workspaceId, 'workspaceId');
    const body = parseBody(WorkspaceAddMemberBodySchema, req);
    const added = await apiOf(deps).addMember(caller, workspaceId, {
      email: body.email,
      agentRef: body.agentRef ?? body.agentId,
      role: body.role,
    });
    // 201 member (the owner's own agent), 202 invitation (anyone else: docs/workspaces.md).
    if ('member' in added) res.status(201).json(MemberAddedResponseSchema.parse(added));
    else res.status(202).json(InvitationSentResponseSchema.parse(added));
  });

  router.delete(
    '/api/workspaces/:workspaceId/invitations/:invitationId',
    deps.requireAuth,
    async (req, res) => {
      const caller = requirePrincipal(res);
      const workspaceId = param(WorkspaceIdSchema, req.params.workspaceId, 'workspaceId');
      const invitationId = param(InvitationIdSchema, req.params.invitationId, 'invitationId');
      res.json(
        InvitationRevokedResponseSchema.parse({
          revoked: true,
          invitation: await invitationsOf(deps).revoke(caller, workspaceId, invitationId),
        }),
      );
    },
  );

  router.get('/api/workspace-invitations', deps.requireAuth, async (_req, res) => {
    res.json(
      ReceivedInvitationsResponseSchema.parse({
        invitations: await invitationsOf(deps).received(requirePrincipal(res)),
      }),
    );
  });

  for (const action of ['accept', 'decline'] as const) {
    router.post(`/api/workspace-invitations/:invitationId/${action}`, deps.requireAuth, async (req, res) => {
      const caller = requirePrincipal(res);
      const invitationId = param(InvitationIdSchema, req.params.invitationId, 'invitationId');
      res.json(
        InvitationAnswerResponseSchema.parse(await invitationsOf(deps).answer(caller, invitationId, action)),
      );
    });
  }

  router.delete('/api/workspaces/:workspaceId/members/:memberId', deps.requireAuth, async (req, res) => {
    const caller = requirePrincipal(res);
    const workspaceId = param(WorkspaceIdSchema, req.params.workspaceId, 'workspaceId');
    const memberId = param(MemberIdSchema, req.params.memberId, 'memberId');
    res.json(
      MemberRemovedResponseSchema.parse({
        removed: true,
        member: await apiOf(deps).removeMember(caller, workspaceId, memberId),
      }),
    );
  });
};
