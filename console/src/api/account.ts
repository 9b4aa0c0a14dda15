import { del, get, patch, post } from './http';

export const TOKEN_SCOPES = [
  'api',
  'workspace',
  'project',
  'app',
  'workflow',
  'mcp_connector',
  'external_agent',
] as const;

export interface BearerToken {
  id: string;
  name: string;
  workspaceId: string | null;
  projectId: string | null;
  scopes: string[];
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
  status: 'active' | 'disabled';
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

export interface Member {
  id: string | null;
  kind: 'account' | 'agent';
  role: string;
  email?: string;
  agentRef?: string;
  name?: string;
}

export interface Invitation {
  id: string;
  kind: 'account' | 'agent';
  role: string;
  email?: string;
  agentRef?: string;
  status?: string;
  workspace?: { id: string; name: string };
  invitedBy?: { email: string };
}

export const tokens = {
  list: () => get<{ tokens: BearerToken[] }>('/api/bearer-tokens'),
  create: (name: string, scopes: string[]) =>
    post<{ token: BearerToken; bearerToken: string; oneTimeReveal: true }>('/api/bearer-tokens', {
      name,
      scopes: scopes.length ? scopes : undefined,
    }),
  rotate: (id: string) =>
    patch<{ token: BearerToken; bearerToken: string; oneTimeReveal: true }>('/api/bearer-tokens', {
      id,
      action: 'rotate',
    }),
  rescope: (id: string, scopes: string[]) =>
    patch<{ token: BearerToken }>('/api/bearer-tokens', { id, scopes }),
  revoke: (id: string) => patch<{ token: BearerToken }>('/api/bearer-tokens', { id, action: 'revoke' }),
};

export const notifications = {
  list: (status?: string) =>
    get<{ notifications: Notification[] }>('/api/notifications', { status, limit: 100 }),
  set: (notificationId: string, status: Notification['status']) =>
    post<{ notification: Notification }>('/api/notifications', { notificationId, status }),
  markAllRead: () => post<{ updated: number }>('/api/notifications', { action: 'mark_all_read' }),
};

export const agents = {
  list: () => get<{ agents: Agent[] }>('/api/agents'),
  create: (name: string, parentAgentRef?: string) =>
    post<{ agent: Agent; apiKey: string }>('/api/agents', {
      name,
      parentAgentRef: parentAgentRef || undefined,
    }),
  setStatus: (agentRef: string, status: Agent['status']) =>
    patch<{ agent: Agent }>('/api/agents', { agentRef, status }),
};

export const workspaces = {
  list: () => get<{ workspaces: Workspace[] }>('/api/workspaces'),
  create: (name: string) => post<{ workspace: Workspace }>('/api/workspaces', { name }),
  get: (id: string) =>
    get<{ workspace: Workspace; members: Member[]; invitations?: Invitation[] }>(
      `/api/workspaces/${encodeURIComponent(id)}`,
    ),
  invite: (id: string, email: string, role: 'member' | 'admin') =>
    post<{ member?: Member; invitation?: Invitation }>(`/api/workspaces/${encodeURIComponent(id)}/members`, {
      email,
      role,
    }),
  removeMember: (id: string, memberId: string) =>
    del<{ removed: true }>(
      `/api/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(memberId)}`,
    ),
  received: () => get<{ invitations: Invitation[] }>('/api/workspace-invitations'),
  answer: (invitationId: string, accept: boolean) =>
    post<{ accepted: boolean }>(
      `/api/workspace-invitations/${encodeURIComponent(invitationId)}/${accept ? 'accept' : 'decline'}`,
    ),
};
