import { del, get, patch, post } from './http';
import type { ExecutionSummary } from './executions';

export type Visibility = 'private' | 'workspace' | 'public';

export interface FileEntry {
  path: string;
  visibility: Visibility;
  size: number;
  contentEncoding: string;
  contentType: string;
  version: number;
  updatedAt: string;
  owned: boolean;
}

export interface MemoryEntry {
  key: string;
  namespaceType: string;
  namespaceId: string;
  visibility: Visibility;
  content: unknown;
  tags: string[];
  version: number;
  updatedAt: string;
  owned: boolean;
}

export interface Secret {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  workspaceId: string;
  maskedValue: string;
  version: number;
  updatedAt: string;
}

export interface Assignment {
  id: string;
  secretId: string;
  secretName: string;
  subjectType: string;
  subjectId: string;
}

export interface AuditEntry {
  id?: string;
  event: string;
  at?: string;
  createdAt?: string;
  secretName?: string;
  reason?: string;
  actor?: { kind: string; ref?: string };
}

type Changed = { execution?: Pick<ExecutionSummary, 'id' | 'status'> };

export const files = {
  list: (text?: string) =>
    get<{ entries: FileEntry[]; nextCursor: string | null }>('/api/files', { text, limit: 200 }),
  preview: (path: string) =>
    get<{ entry: FileEntry; contentEncoding: string; content: string; truncated: boolean }>('/api/files', {
      action: 'preview',
      path,
    }),
  write: (path: string, data: string, contentEncoding: 'utf8' | 'base64', visibility?: Visibility) =>
    post<{ entry: FileEntry } & Changed>('/api/files', { path, data, contentEncoding, visibility }),
  rename: (path: string, nextPath: string) =>
    patch<{ entry: FileEntry; previousPath: string } & Changed>('/api/files', { path, nextPath }),
  remove: (path: string) => del<{ deleted: true } & Changed>('/api/files', { path }),
};

export const memory = {
  list: (search?: string) => get<{ entries: MemoryEntry[] }>('/api/memory', { search, limit: 200 }),
  put: (key: string, content: unknown, visibility: Visibility) =>
    post<{ entry: MemoryEntry } & Changed>('/api/memory', { key, content, visibility }),
  remove: (entry: Pick<MemoryEntry, 'key' | 'namespaceType' | 'namespaceId'>) =>
    del<{ deleted: true } & Changed>('/api/memory', {
      key: entry.key,
      namespaceType: entry.namespaceType,
      namespaceId: entry.namespaceId,
    }),
};

export const vault = {
  list: () => get<{ secrets: Secret[] }>('/api/vault'),
  create: (name: string, value: string) => post<{ secret: Secret }>('/api/vault', { name, value }),
  act: (secretId: string, action: 'disable' | 'enable' | 'rotate', value?: string) =>
    patch<{ secret: Secret }>('/api/vault', { secretId, action, value }),
  remove: (secretId: string) => del<{ deleted: true }>('/api/vault', { secretId }),
  assignments: () => get<{ assignments: Assignment[] }>('/api/vault/assignments'),
  assign: (secretId: string, subjectType: string, subjectId: string) =>
    post<{ assignment: Assignment }>('/api/vault/assignments', { secretId, subjectType, subjectId }),
  unassign: (a: Assignment) =>
    del<{ deleted: true }>('/api/vault/assignments', {
      secretId: a.secretId,
      subjectType: a.subjectType,
      subjectId: a.subjectId,
    }),
  audit: () => get<{ entries: AuditEntry[] }>('/api/vault/audit', { limit: 50 }),
  /** A runtime grant (docs/vault.md): what a skill or app would get when it runs. */
  grant: (workspaceId: string, secretName: string, subjectType: 'skill' | 'app', subjectId: string) =>
    post<{ granted: true; grant: { id: string; name: string; status: string; expiresAt: string } }>(
      '/api/vault/access',
      { action: 'runtime', workspaceId, secretName, subjectType, subjectId },
    ),
};
