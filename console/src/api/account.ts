import { api, call } from './http';

export const TOKEN_SCOPES = [
  'api',
  'workspace',
  'project',
  'app',
  'workflow',
  'mcp_connector',
  'external_agent',
] as const;

export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface BearerToken {
  id: string;
  name: string;
  workspaceId: string | null;
  projectId: string | null;
  scopes: TokenScope[];
  maskedToken: string;
  status: 'live' | 'revoked';
  lastUsedAt: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt?: string;
}

export interface Notification {
  id: string;
  type: string;
  title: string;
  body: string;
  status: 'unread' | 'read' | 'archived';
  executionId?: string | null;
  createdAt: string;
}

export interface Agent {
  agentRef: string;
  name: string;
  isSubagent: boolean;
  /** `active` or `disabled` (the contract says string). */
  status: string;
  allowedTools?: string[];
  allowedDomains?: string[];
}

export interface Workspace {
  id: string;
  name: string;
  isDefault: boolean;
  role: string;
  owned: boolean;
  createdAt: string;
}

/** A member; the owner has `id: null` (no member document, cannot be removed). */
export interface Member {
  id: string | null;
  kind: 'account' | 'agent';
  role: 'owner' | 'admin' | 'member';
  email?: string;
  agentRef?: string;
  name?: string;
  addedAt: string;
}

/** A pending invitation as the workspace's owner sees it. */
export interface Invitation {
  id: string;
  kind: 'account' | 'agent';
  role: 'admin' | 'member';
  email?: string;
  agentRef?: string;
  status: 'pending';
  invitedAt: string;
}

/** An invitation as its invitee sees it: the workspace and who invites. */
export interface ReceivedInvitation {
  id: string;
  kind: 'account' | 'agent';
  role: 'admin' | 'member';
  workspace: { id: string; name: string };
  invitedBy: { email: string | null };
  agentRef?: string;
  invitedAt: string;
}

type Revealed = { token: BearerToken; bearerToken: string; oneTimeReveal: true };

export const tokens = {
  list: (): Promise<{ tokens: BearerToken[] }> => call(api.GET('/api/bearer-tokens')),
  create: (name: string, scopes: TokenScope[]): Promise<Revealed> =>
    call<Revealed>(
      api.POST('/api/bearer-tokens', { body: { name, scopes: scopes.length ? scopes : undefined } }),
    ),
  // PATCH answers `{token, bearerToken, oneTimeReveal: true}` for a rotation only (a union in the document).
  rotate: async (id: string): Promise<Revealed> => {
    const answer = await call(api.PATCH('/api/bearer-tokens', { body: { id, action: 'rotate' } }));
    if (!answer.oneTimeReveal) throw new Error('The rotation answered no new token');
    return answer;
  },
  rescope: (id: string, scopes: TokenScope[]): Promise<{ token: BearerToken }> =>
    call(api.PATCH('/api/bearer-tokens', { body: { id, scopes } })),
  revoke: (id: string): Promise<{ token: BearerToken }> =>
    call(api.PATCH('/api/bearer-tokens', { body: { id, action: 'revoke' } })),
};

export const notifications = {
  list: (status?: Notification['status']): Promise<{ notifications: Notification[] }> =>
    call(api.GET('/api/notifications', { params: { query: { ...(status ? { status } : {}), limit: 100 } } })),
  set: async (
    notificationId: string,
    status: Notification['status'],
  ): Promise<{ notification: Notification }> => {
    const answer = await call(api.POST('/api/notifications', { body: { notificationId, status } }));
    if (!('notification' in answer)) throw new Error('Unexpected answer to a notification update');
    return answer;
  },
  markAllRead: async (): Promise<{ updated: number }> => {
    const answer = await call(api.POST('/api/notifications', { body: { action: 'mark_all_read' } }));
    if (!('updated' in answer)) throw new Error('Unexpected answer to mark all read');
    return answer;
  },
};

export const agents = {
  list: (): Promise<{ agents: Agent[] }> => call(api.GET('/api/agents')),
  create: (name: string, parentAgentRef?: string): Promise<{ agent: Agent; apiKey: string }> =>
    call(api.POST('/api/agents', { body: { name, parentAgentRef: parentAgentRef || undefined } })),
  setStatus: (agentRef: string, status: 'active' | 'disabled'): Promise<{ agent: Agent }> =>
    call(api.PATCH('/api/agents', { body: { agentRef, status } })),
};

export const workspaces = {
  list: (): Promise<{ workspaces: Workspace[] }> => call(api.GET('/api/workspaces')),
  create: (name: string): Promise<{ workspace: Workspace }> =>
    call(api.POST('/api/workspaces', { body: { name } })),
  get: (
    workspaceId: string,
  ): Promise<{ workspace: Workspace; members: Member[]; invitations?: Invitation[] }> =>
    call(api.GET('/api/workspaces/{workspaceId}', { params: { path: { workspaceId } } })),
  invite: (
    workspaceId: string,
    email: string,
    role: 'member' | 'admin',
  ): Promise<{ member?: Member; invitation?: Invitation }> =>
    call(
      api.POST('/api/workspaces/{workspaceId}/members', {
        params: { path: { workspaceId } },
        body: { email, role },
      }),
    ),
  removeMember: (workspaceId: string, memberId: string): Promise<{ removed: true }> =>
    call(
      api.DELETE('/api/workspaces/{workspaceId}/members/{memberId}', {
        params: { path: { workspaceId, memberId } },
      }),
    ),
  received: (): Promise<{ invitations: ReceivedInvitation[] }> => call(api.GET('/api/workspace-invitations')),
  answer: (invitationId: string, accept: boolean): Promise<{ accepted: boolean }> =>
    accept
      ? call(
          api.POST('/api/workspace-invitations/{invitationId}/accept', {
            params: { path: { invitationId } },
          }),
        )
      : call(
          api.POST('/api/workspace-invitations/{invitationId}/decline', {
            params: { path: { invitationId } },
          }),
        ),
};
