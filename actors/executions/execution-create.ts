import type { z } from 'zod';
import type { Principal } from '../../schemas/auth';
import { EXECUTION_LIMITS, type ExecutionDocument } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { ExecutionCreateMessageSchema } from '../../schemas/messages/executions';
import { agentsCollection } from '../identity/agents.collection';
import { compact } from './execution-machine';
import type { ExecutionsService } from './executions.service';

type CreateBody = z.output<typeof ExecutionCreateMessageSchema>;

const jsonChars = (value: unknown) => JSON.stringify(value ?? null).length;

/**
 * Checks a new execution for `caller`'s account and builds its record (QUEUED, no step run yet,
 * not written), in the given workspace (a member's) or the account's default one. The runner of
 * `type` must be registered on this node and accept the input; the workspace must not be in
 * panic lockdown.
 */
export async function draftExecutionDocument(
  svc: ExecutionsService,
  id: string,
  caller: Principal & { accountId: string },
  body: CreateBody,
): Promise<ExecutionDocument> {
  const runner = svc.runners.get(body.type);
  if (!runner) {
    throw errors.validation(`Unknown execution type ${body.type}`, {
      field: 'type',
      types: svc.runners.types(),
    });
  }
  const parsed = runner.input.safeParse(body.input);
  if (!parsed.success) {
    throw errors.validation(`Invalid input for ${body.type}`, {
      details: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  if (jsonChars(body.input) > EXECUTION_LIMITS.maxJsonChars) {
    throw errors.validation(`The input is larger than ${EXECUTION_LIMITS.maxJsonChars} characters of JSON`);
  }
  const workspaceId = body.workspaceId ?? (await svc.workspaces.defaultWorkspaceOf(caller.accountId));
  if (!workspaceId) throw errors.notFound('Workspace not found');
  if (body.workspaceId && !(await svc.workspaces.canWorkIn(caller.accountId, body.workspaceId))) {
    throw errors.notFound('Workspace not found', { workspaceId: body.workspaceId });
  }
  await svc.assertNotLockedDown(workspaceId);
  let agentRef: string | undefined;
  if (caller.subjectType === 'agent' && caller.agentId) {
    const agent = await svc.services.documents.repository(agentsCollection).findById(caller.agentId);
    agentRef = agent?.agentRef;
  }
  const now = new Date();
  const totalSteps = runner.totalSteps?.(parsed.data) ?? null;
  const doc: ExecutionDocument = compact({
    _id: id,
    accountId: caller.accountId,
    workspaceId,
    sessionId: body.sessionId,
    workflowId: body.workflowId,
    appSlug: body.appSlug,
    skillSlug: body.skillSlug,
    agentRef,
    type: body.type,
    status: 'QUEUED' as const,
    sourceType: body.sourceType,
    title: body.title,
    input: body.input,
    runAs: compact({
      subjectType: caller.subjectType,
      accountId: caller.accountId,
      agentId: caller.subjectType === 'agent' ? caller.agentId : undefined,
      scopes: caller.scopes && caller.scopes.length > 0 ? caller.scopes : undefined,
    }),
    steps: [],
    progress: { completedSteps: 0, totalSteps },
    logSeq: 1,
    createdAt: now,
    updatedAt: now,
    version: 0,
  });
  return doc;
}

/**
 * Checks and inserts a new execution (QUEUED, no step run yet) with its `Created` log line (see
 * `draftExecutionDocument`). A repeated create of the same id by the same account answers the
 * existing record.
 */
export async function createExecutionDocument(
  svc: ExecutionsService,
  id: string,
  caller: Principal & { accountId: string },
  body: CreateBody,
): Promise<ExecutionDocument> {
  const doc = await draftExecutionDocument(svc, id, caller, body);
  const now = doc.createdAt;
  if (!(await svc.store.insertIfAbsent(doc))) {
    const existing = await svc.store.load(id);
    if (!existing || existing.accountId !== caller.accountId)
      throw errors.conflict('This execution id is taken');
    return existing;
  }
  await svc.store.logs.write(
    id,
    1,
    [{ level: 'info', message: `Created (${body.type}, ${body.sourceType})` }],
    now,
  );
  return doc;
}
