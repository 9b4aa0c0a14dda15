import { z } from 'zod';
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
import { defineContracts } from '../../src/http/openapi/contract';

const WorkspaceParams = z.object({ workspaceId: WorkspaceIdSchema });
const InvitationParams = z.object({ invitationId: InvitationIdSchema });

const answer = (action: 'accept' | 'decline') => ({
  method: 'post' as const,
  path: `/api/workspace-invitations/:invitationId/${action}`,
  summary: `${action === 'accept' ? 'Accept' : 'Decline'} an invitation to a workspace`,
  auth: 'sb' as const,
  params: InvitationParams,
  responses: { 200: InvitationAnswerResponseSchema },
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
    responses: { 200: WorkspaceListResponseSchema },
  },
  {
    method: 'post',
    path: '/api/workspaces',
    summary: 'Create a workspace',
    auth: 'sb',
    body: WorkspaceCreateBodySchema,
    bodyExample: { name: 'Platform team' },
    responses: { 201: WorkspaceResponseSchema },
    errors: [409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/workspaces/:workspaceId',
    summary: 'One workspace with its members and pending invitations',
    auth: 'sb',
    params: WorkspaceParams,
    responses: { 200: WorkspaceDetailResponseSchema },
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
    responses: { 201: MemberAddedResponseSchema, 202: InvitationSentResponseSchema },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'delete',
    path: '/api/workspaces/:workspaceId/invitations/:invitationId',
    summary: 'Revoke a pending invitation',
    auth: 'sb',
    params: WorkspaceParams.extend(InvitationParams.shape),
    responses: { 200: InvitationRevokedResponseSchema },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/workspace-invitations',
    summary: 'Invitations the caller received',
    auth: 'sb',
    responses: { 200: ReceivedInvitationsResponseSchema },
  },
  answer('accept'),
  answer('decline'),
  {
    method: 'delete',
    path: '/api/workspaces/:workspaceId/members/:memberId',
    summary: 'Remove a member',
    auth: 'sb',
    params: WorkspaceParams.extend({ memberId: MemberIdSchema }),
    responses: { 200: MemberRemovedResponseSchema },
    errors: [404, 409],
    idempotent: true,
  },
]);
