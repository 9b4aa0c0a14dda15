import { z } from 'zod';
import {
  InvitationIdSchema,
  MemberIdSchema,
  WorkspaceAddMemberBodySchema,
  WorkspaceCreateBodySchema,
  WorkspaceIdSchema,
  WorkspaceViewSchema,
} from '../../schemas/http/workspaces';
import { defineContracts } from '../../src/http/openapi/contract';

/** An answer whose full shape is in docs/workspaces.md; the named fields are always there. */
const described = (shape: z.ZodRawShape = {}) => z.looseObject(shape);
const WorkspaceParams = z.object({ workspaceId: WorkspaceIdSchema });
const InvitationParams = z.object({ invitationId: InvitationIdSchema });

const answer = (action: 'accept' | 'decline') => ({
  method: 'post' as const,
  path: `/api/workspace-invitations/:invitationId/${action}`,
  summary: `${action === 'accept' ? 'Accept' : 'Decline'} an invitation to a workspace`,
  auth: 'sb' as const,
  params: InvitationParams,
  responses: { 200: described() },
  errors: [404, 409],
  idempotent: true,
});

/** workspaces.route.ts: workspaces, members and invitations. */
export const workspaceContracts = defineContracts('Workspaces', [
  {
    method: 'get',
    path: '/api/workspaces',
    summary: 'The workspaces the caller belongs to',
    auth: 'sb',
    responses: { 200: z.object({ workspaces: z.array(WorkspaceViewSchema) }) },
  },
  {
    method: 'post',
    path: '/api/workspaces',
    summary: 'Create a workspace',
    auth: 'sb',
    body: WorkspaceCreateBodySchema,
    bodyExample: { name: 'Platform team' },
    responses: { 201: z.object({ workspace: WorkspaceViewSchema }) },
    errors: [409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/workspaces/:workspaceId',
    summary: 'One workspace with its members and pending invitations',
    auth: 'sb',
    params: WorkspaceParams,
    responses: { 200: described({ workspace: WorkspaceViewSchema }) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/workspaces/:workspaceId/members',
    summary: "Add the owner's agent (201) or invite someone by email or agent (202)",
    auth: 'sb',
    params: WorkspaceParams,
    body: WorkspaceAddMemberBodySchema,
    bodyExample: { email: 'grace@example.com', role: 'member' },
    responses: { 201: described({ member: described() }), 202: described({ invitation: described() }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'delete',
    path: '/api/workspaces/:workspaceId/invitations/:invitationId',
    summary: 'Revoke a pending invitation',
    auth: 'sb',
    params: WorkspaceParams.extend(InvitationParams.shape),
    responses: { 200: z.object({ revoked: z.literal(true), invitation: described() }) },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/workspace-invitations',
    summary: 'Invitations the caller received',
    auth: 'sb',
    responses: { 200: z.object({ invitations: z.array(described()) }) },
  },
  answer('accept'),
  answer('decline'),
  {
    method: 'delete',
    path: '/api/workspaces/:workspaceId/members/:memberId',
    summary: 'Remove a member',
    auth: 'sb',
    params: WorkspaceParams.extend({ memberId: MemberIdSchema }),
    responses: { 200: z.object({ removed: z.literal(true), member: described() }) },
    errors: [404, 409],
    idempotent: true,
  },
]);
