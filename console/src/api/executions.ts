import type { operations } from '../../../client/index';
import { api, call, compact } from './http';

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

type ListQuery = NonNullable<operations['getApiExecutions']['parameters']['query']>;
type RecoveryQuery = NonNullable<operations['getApiRecovery']['parameters']['query']>;
type CreateBody = NonNullable<operations['postApiExecutions']['requestBody']>['content']['application/json'];

export const executions = {
  list: (query: ListQuery): Promise<{ executions: ExecutionSummary[]; nextCursor: string | null }> =>
    call(api.GET('/api/executions', { params: { query: compact(query) } })),
  get: (id: string): Promise<{ execution: Execution; logs: LogLine[] }> =>
    call(api.GET('/api/executions/{id}', { params: { path: { id } } })),
  act: (id: string, action: Action): Promise<{ execution: Execution; rollback?: RollbackReport }> =>
    call(api.POST('/api/executions/{id}/actions', { params: { path: { id } }, body: { action } })),
  create: (body: CreateBody): Promise<{ execution: ExecutionSummary }> =>
    call(api.POST('/api/executions', { body })),
  recovery: (query: RecoveryQuery): Promise<{ executions: ExecutionSummary[]; nextCursor: string | null }> =>
    call(api.GET('/api/recovery', { params: { query: compact(query) } })),
  recover: (
    executionId: string,
    action: Exclude<Action, 'pause'>,
  ): Promise<{ execution: Execution; rollback?: RollbackReport }> =>
    call(api.POST('/api/recovery', { body: { executionId, action } })),
  panicState: (
    workspaceId: string,
  ): Promise<{ workspaceId: string; lockdown: boolean; since: string | null }> =>
    call(api.GET('/api/panic', { params: { query: { workspaceId } } })),
  panic: (workspaceId: string): Promise<PanicAnswer> =>
    call(api.POST('/api/panic', { body: { workspaceId } })),
  lift: (workspaceId: string): Promise<{ workspaceId: string; lockdown: boolean; since: string | null }> =>
    call(api.DELETE('/api/panic', { params: { query: { workspaceId } } })),
};
