import type { Principal } from '../../schemas/auth';
import { EXECUTION_LIMITS, type Effect, type ExecutionDocument } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import { agentsCollection } from '../identity/agents.collection';
import { compact } from './execution-machine';
import { newExecutionId } from './executions.repo';
import type { ExecutionsService } from './executions.service';

/** What a synchronous operation did, to be recorded as a finished one-step execution. */
export interface CompletedOperation {
  /** Upper-case type, e.g. `FILE_WRITE`, `MEMORY_WRITE`. */
  type: string;
  title: string;
  /** Default `api`. */
  sourceType?: string;
  /** A workspace the caller's account is a member of (checked by the caller), else its default one. */
  workspaceId?: string;
  /** The app the operation was about (`GET /api/executions?appSlug=`). */
  appSlug?: string;
  /** The name of the one step. */
  stepName: string;
  /** The effects of the operation (with their undo data), in the order they happened. */
  effects: Effect[];
  /** The step's output and the execution's result (public: no internal id). */
  result?: unknown;
  /** Log lines saying what the step did, written after its "completed" line. */
  logLines?: string[];
}

const jsonChars = (value: unknown) => JSON.stringify(value ?? null).length;

/**
 * The workspace a change will be recorded in (the given one, else the caller's account's default
 * one), refused (403) while that workspace is in panic lockdown: like `POST /api/executions`, no
 * new execution, hence no recorded change, starts there until the lockdown is lifted. Call it
 * before making the change.
 */
export async function workspaceForChange(
  svc: ExecutionsService,
  caller: Principal & { accountId: string },
  workspaceId: string | undefined,
): Promise<string> {
  const id = workspaceId ?? (await svc.workspaces.defaultWorkspaceOf(caller.accountId));
  if (!id) throw errors.notFound('Workspace not found');
  await svc.assertNotLockedDown(id);
  return id;
}

/**
 * Records an operation that already happened (an HTTP write of a file or a memory entry) as an
 * execution: COMPLETED, one COMPLETED step holding its effects, so that
 * `POST /api/executions/{id}/actions {action: 'rollback'}` undoes it through the registered
 * undoers. No runner is involved (the type need not be registered): nothing runs again, and the
 * only action that changes such an execution is rollback (or a pause/resume hold).
 */
export async function recordCompletedExecution(
  svc: ExecutionsService,
  caller: Principal & { accountId: string },
  op: CompletedOperation,
): Promise<ExecutionDocument> {
  const workspaceId = op.workspaceId ?? (await svc.workspaces.defaultWorkspaceOf(caller.accountId));
  if (!workspaceId) throw errors.notFound('Workspace not found');
  let agentRef: string | undefined;
  if (caller.subjectType === 'agent' && caller.agentId) {
    const agent = await svc.services.documents.repository(agentsCollection).findById(caller.agentId);
    agentRef = agent?.agentRef;
  }
  const effects = op.effects
    .slice(0, EXECUTION_LIMITS.maxEffectsPerStep)
    .map((e) =>
      e.undo !== undefined && jsonChars(e.undo) > EXECUTION_LIMITS.maxUndoChars
        ? { kind: e.kind, target: e.target.slice(0, 600) }
        : { ...e, target: e.target.slice(0, 600) },
    );
  const result = jsonChars(op.result) > EXECUTION_LIMITS.maxJsonChars ? { truncated: true } : op.result;
  const now = new Date();
  const id = newExecutionId();
  const doc: ExecutionDocument = compact({
    _id: id,
    accountId: caller.accountId,
    workspaceId,
    appSlug: op.appSlug,
    agentRef,
    type: op.type,
    status: 'COMPLETED' as const,
    sourceType: op.sourceType ?? 'api',
    title: op.title.slice(0, EXECUTION_LIMITS.maxTitle),
    input: {},
    runAs: compact({
      subjectType: caller.subjectType,
      accountId: caller.accountId,
      agentId: caller.subjectType === 'agent' ? caller.agentId : undefined,
      scopes: caller.scopes && caller.scopes.length > 0 ? caller.scopes : undefined,
    }),
    steps: [
      compact({
        index: 0,
        name: op.stepName.slice(0, 200),
        status: 'COMPLETED' as const,
        attempts: 1,
        effects,
        output: result,
        startedAt: now,
        endedAt: now,
      }),
    ],
    progress: { completedSteps: 1, totalSteps: 1 },
    result,
    logSeq: 3 + (op.logLines?.length ?? 0),
    createdAt: now,
    updatedAt: now,
    endedAt: now,
    version: 0,
  });
  if (!(await svc.store.insertIfAbsent(doc))) throw errors.conflict('This execution id is taken');
  await svc.store.logs.write(
    id,
    1,
    [
      { level: 'info', message: `Created (${op.type}, ${doc.sourceType})` },
      { level: 'info', message: `Step 1 "${doc.steps[0]!.name}" completed` },
      ...(op.logLines ?? []).map((message) => ({ level: 'info' as const, message })),
      { level: 'info', message: 'Completed' },
    ],
    now,
  );
  return doc;
}
