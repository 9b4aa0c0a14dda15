import { get, post, request, type Query } from './http';

export type ExecutionStatus = 'QUEUED' | 'RUNNING' | 'PAUSED' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export const STATUSES: ExecutionStatus[] = [
  'QUEUED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
];
export type Action = 'pause' | 'resume' | 'retry' | 'cancel' | 'rollback';

export interface Failure {
  whatFailed: string | null;
  code: string;
  message: string;
  at: string;
}

export interface ExecutionSummary {
  id: string;
  type: string;
  status: ExecutionStatus;
  sourceType: string;
  title: string;
  workspaceId: string;
  sessionId?: string | null;
  skillSlug?: string | null;
  appSlug?: string | null;
  progress: { completedSteps: number; totalSteps: number | null };
  hold?: { previousStatus: ExecutionStatus; at: string } | null;
  failure?: Failure | null;
  createdAt: string;
  updatedAt: string;
}

export interface Step {
  index: number;
  name: string;
  status: string;
  attempts: number;
  effects: { kind: string; target: string; undone: boolean }[];
  error?: { code: string; message: string } | null;
}

export interface Execution extends ExecutionSummary {
  steps: Step[];
  lastRollback?: { undone: number; notUndone: number } | null;
  result?: unknown;
  endedAt?: string | null;
}

export interface LogLine {
  seq: number;
  level: string;
  message: string;
  at: string;
}

export interface RollbackReport {
  undone: { step: number; kind: string; target: string }[];
  notUndone: { effect: { step: number; kind: string; target: string }; reason: string }[];
}

export interface PanicAnswer {
  stopped: number;
  executions: { id: string; status: string }[];
  workspaceId: string;
  lockdown: boolean;
}

export const executions = {
  list: (query: Query) =>
    get<{ executions: ExecutionSummary[]; nextCursor: string | null }>('/api/executions', query),
  get: (id: string) =>
    get<{ execution: Execution; logs: LogLine[] }>(`/api/executions/${encodeURIComponent(id)}`),
  act: (id: string, action: Action) =>
    post<{ execution: Execution; rollback?: RollbackReport }>(
      `/api/executions/${encodeURIComponent(id)}/actions`,
      { action },
    ),
  create: (body: { title: string; type: string; input: unknown; workspaceId?: string }) =>
    post<{ execution: ExecutionSummary }>('/api/executions', body),
  recovery: (query: Query) =>
    get<{ executions: ExecutionSummary[]; nextCursor: string | null }>('/api/recovery', query),
  recover: (executionId: string, action: Exclude<Action, 'pause'>) =>
    post<{ execution: Execution; rollback?: RollbackReport }>('/api/recovery', { executionId, action }),
  panicState: (workspaceId: string) =>
    get<{ workspaceId: string; lockdown: boolean; since: string | null }>('/api/panic', { workspaceId }),
  panic: (workspaceId: string) => post<PanicAnswer>('/api/panic', { workspaceId }),
  lift: (workspaceId: string) =>
    request('DELETE', '/api/panic', { workspaceId }) as Promise<{ workspaceId: string; lockdown: false }>,
};
