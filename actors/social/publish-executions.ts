import type { ExecutionDocument, LogLevel } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { ExecutionsService } from '../executions/executions';
import { newExecutionId } from '../executions/executions';

/** The execution type of one attempt to publish a post. */
export const SOCIAL_PUBLISH_TYPE = 'SOCIAL_PUBLISH';

export interface PublishAttemptRecord {
  ownerAccountId: string;
  workspaceId: string;
  title: string;
  /** What happened, in order (no token, never the post's text beyond its first words). */
  logs: Array<{ level: LogLevel; message: string }>;
  startedAt: Date;
  /** Set: the attempt failed (and the execution is FAILED) with this code and message. */
  failure?: { code: string; message: string };
  result?: Record<string, unknown>;
}

/**
 * Records one publish attempt as a finished one-step execution (`SOCIAL_PUBLISH`, sourceType
 * `social`), COMPLETED or FAILED, with its log lines, so the executions routes and recovery show
 * every attempt. The attempt itself ran already, under the publisher's claim of the queue item:
 * no runner is registered, and retry of the execution does not republish (the queue's retries do).
 */
export async function recordPublishAttempt(
  svc: ExecutionsService,
  rec: PublishAttemptRecord,
): Promise<string> {
  const id = newExecutionId();
  const now = new Date();
  const failed = !!rec.failure;
  const status = failed ? ('FAILED' as const) : ('COMPLETED' as const);
  const lines = [
    { level: 'info' as const, message: `Created (${SOCIAL_PUBLISH_TYPE}, social)` },
    ...rec.logs,
    failed
      ? { level: 'error' as const, message: `Failed: ${rec.failure!.message}` }
      : { level: 'info' as const, message: 'Completed' },
  ];
  const doc: ExecutionDocument = {
    _id: id,
    accountId: rec.ownerAccountId,
    workspaceId: rec.workspaceId,
    type: SOCIAL_PUBLISH_TYPE,
    status,
    sourceType: 'social',
    title: rec.title.slice(0, 200),
    input: {},
    runAs: { subjectType: 'account', accountId: rec.ownerAccountId },
    steps: [
      {
        index: 0,
        name: 'publish',
        status,
        attempts: 1,
        effects: [],
        ...(rec.result ? { output: rec.result } : {}),
        startedAt: rec.startedAt,
        endedAt: now,
        ...(failed
          ? { error: { code: rec.failure!.code.slice(0, 64), message: rec.failure!.message.slice(0, 1000) } }
          : {}),
      },
    ],
    progress: { completedSteps: failed ? 0 : 1, totalSteps: 1 },
    ...(rec.result ? { result: rec.result } : {}),
    ...(failed
      ? {
          failure: {
            whatFailed: 'step 1 "publish"',
            code: rec.failure!.code,
            message: rec.failure!.message,
            at: now,
          },
        }
      : {}),
    logSeq: lines.length,
    createdAt: rec.startedAt,
    updatedAt: now,
    endedAt: now,
    version: 0,
  };
  if (!(await svc.store.repo.insertIfAbsent(doc))) throw errors.conflict('This execution id is taken');
  await svc.logs.write(id, 1, lines, now);
  return id;
}
