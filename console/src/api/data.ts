import type { operations } from '../../../client/index';
import { api, call, type AnswerWith } from './http';
import type { ExecutionSummary } from './executions';

export type Visibility = 'private' | 'workspace' | 'public';

export interface FileEntry {
  path: string;
  visibility: Visibility;
  size: number;
  contentEncoding: string | null;
  contentType: string | null;
  version: number;
  updatedAt: string;
  owned: boolean;
}

/** A memory namespace's kind (the contract's enum). */
export type NamespaceType = NonNullable<
  NonNullable<operations['deleteApiMemory']['parameters']['query']>['namespaceType']
>;

export interface MemoryEntry {
  key: string;
  namespaceType: NamespaceType;
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

type FilesAnswer = operations['getApiFiles']['responses'][200]['content']['application/json'];
/** Who a secret can be assigned to (the contract's enum). */
export type SubjectType = NonNullable<
  operations['postApiVaultAssignments']['requestBody']
>['content']['application/json']['subjectType'];

export interface Assignment {
  id: string;
  secretId: string;
  secretName: string;
  subjectType: SubjectType;
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
  // GET /api/files answers a list, or a preview with `action=preview` (a union in the document).
  list: async (text?: string): Promise<AnswerWith<FilesAnswer, 'entries'>> => {
    const answer = await call(
      api.GET('/api/files', { params: { query: { ...(text ? { text } : {}), limit: 200 } } }),
    );
    if (!('entries' in answer)) throw new Error('Unexpected answer to a file listing');
    return answer;
  },
  preview: async (path: string): Promise<AnswerWith<FilesAnswer, 'content'>> => {
    const answer = await call(api.GET('/api/files', { params: { query: { action: 'preview', path } } }));
    if (!('content' in answer)) throw new Error('Unexpected answer to a file preview');
    return answer;
  },
  write: (
    path: string,
    data: string,
    contentEncoding: 'utf8' | 'base64',
    visibility?: Visibility,
  ): Promise<{ entry: FileEntry } & Changed> =>
    call(api.POST('/api/files', { body: { path, data, contentEncoding, visibility } })),
  rename: (path: string, nextPath: string): Promise<{ entry: FileEntry; previousPath: string } & Changed> =>
    call(api.PATCH('/api/files', { body: { path, nextPath } })),
  remove: (path: string): Promise<{ deleted: true } & Changed> =>
    call(api.DELETE('/api/files', { params: { query: { path } } })),
};

export const memory = {
  list: (search?: string): Promise<{ entries: MemoryEntry[] }> =>
    call(api.GET('/api/memory', { params: { query: { ...(search ? { search } : {}), limit: 200 } } })),
  put: (key: string, content: unknown, visibility: Visibility): Promise<{ entry: MemoryEntry } & Changed> =>
    call(api.POST('/api/memory', { body: { key, content, visibility } })),
  remove: (
    entry: Pick<MemoryEntry, 'key' | 'namespaceType' | 'namespaceId'>,
  ): Promise<{ deleted: true } & Changed> =>
    call(
      api.DELETE('/api/memory', {
        params: {
          query: { key: entry.key, namespaceType: entry.namespaceType, namespaceId: entry.namespaceId },
        },
      }),
    ),
};

export const vault = {
  list: (): Promise<{ secrets: Secret[] }> => call(api.GET('/api/vault')),
  create: (name: string, value: string): Promise<{ secret: Secret }> =>
    call(api.POST('/api/vault', { body: { name, value } })),
  act: (
    secretId: string,
    action: 'disable' | 'enable' | 'rotate',
    value?: string,
  ): Promise<{ secret: Secret }> => call(api.PATCH('/api/vault', { body: { secretId, action, value } })),
  remove: (secretId: string): Promise<{ deleted: true }> =>
    call(api.DELETE('/api/vault', { body: { secretId } })),
  assignments: (): Promise<{ assignments: Assignment[] }> => call(api.GET('/api/vault/assignments')),
  assign: (
    secretId: string,
    subjectType: SubjectType,
    subjectId: string,
  ): Promise<{ assignment: Assignment }> =>
    call(api.POST('/api/vault/assignments', { body: { secretId, subjectType, subjectId } })),
  unassign: (a: Assignment): Promise<{ deleted: true }> =>
    call(
      api.DELETE('/api/vault/assignments', {
        body: { secretId: a.secretId, subjectType: a.subjectType, subjectId: a.subjectId },
      }),
    ),
  audit: (): Promise<{ entries: AuditEntry[] }> =>
    call(api.GET('/api/vault/audit', { params: { query: { limit: 50 } } })),
  /** A runtime grant (docs/vault.md): what a skill or app would get when it runs. */
  grant: (
    workspaceId: string,
    secretName: string,
    subjectType: 'skill' | 'app',
    subjectId: string,
  ): Promise<{ granted: true; grant: { id: string; name: string; status: string; expiresAt: string } }> =>
    call(
      api.POST('/api/vault/access', {
        body: { action: 'runtime', workspaceId, secretName, subjectType, subjectId },
      }),
    ),
};
