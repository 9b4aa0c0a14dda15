import { z } from 'zod';
import {
  EXECUTION_LIMITS,
  ExecutionActionSchema,
  ExecutionStatusSchema,
  FinalStatusSchema,
  LogLevelSchema,
  StepStatusSchema,
} from '../documents/execution';

/**
 * HTTP shapes of executions, recovery and panic (docs/executions.md). Views carry public ids only
 * (`exe_…`, workspace ids shown to members, `agentRef`); never `acc_…`/`agt_…`.
 */

const Iso = z.string();

export const EffectViewSchema = z.object({
  kind: z.string(),
  target: z.string(),
  undone: z.boolean(),
});

export const StepViewSchema = z.object({
  index: z.number().int(),
  name: z.string(),
  status: StepStatusSchema,
  attempts: z.number().int(),
  effects: z.array(EffectViewSchema),
  output: z.unknown().optional(),
  startedAt: Iso,
  endedAt: Iso.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type StepView = z.infer<typeof StepViewSchema>;

export const FailureViewSchema = z.object({
  /** Null for a hold over an execution that did not fail (paused after it completed or was cancelled). */
  whatFailed: z.string().nullable(),
  code: z.string(),
  message: z.string(),
  at: Iso,
});

/** One execution in a listing. */
export const ExecutionSummarySchema = z.object({
  id: z.string(),
  type: z.string(),
  status: ExecutionStatusSchema,
  sourceType: z.string(),
  title: z.string(),
  workspaceId: z.string(),
  sessionId: z.string().nullable(),
  workflowId: z.string().nullable(),
  appSlug: z.string().nullable(),
  skillSlug: z.string().nullable(),
  agentRef: z.string().nullable(),
  progress: z.object({ completedSteps: z.number().int(), totalSteps: z.number().int().nullable() }),
  hold: z.object({ previousStatus: FinalStatusSchema, at: Iso }).nullable(),
  failure: FailureViewSchema.nullable(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type ExecutionSummary = z.infer<typeof ExecutionSummarySchema>;

/** One execution in full (`GET /api/executions/{id}`, action answers). */
export const ExecutionViewSchema = ExecutionSummarySchema.extend({
  steps: z.array(StepViewSchema),
  stepInFlight: z.number().int().nullable(),
  lastRollback: z.object({ at: Iso, undone: z.number().int(), notUndone: z.number().int() }).nullable(),
  result: z.unknown().optional(),
  endedAt: Iso.nullable(),
});
export type ExecutionView = z.infer<typeof ExecutionViewSchema>;

export const LogViewSchema = z.object({
  seq: z.number().int(),
  level: LogLevelSchema,
  message: z.string(),
  at: Iso,
});
export type LogView = z.infer<typeof LogViewSchema>;

/** What a rollback did: every recorded effect not undone before is in exactly one list. */
export const RollbackReportSchema = z.object({
  undone: z.array(z.object({ step: z.number().int(), kind: z.string(), target: z.string() })),
  notUndone: z.array(
    z.object({
      effect: z.object({ step: z.number().int(), kind: z.string(), target: z.string() }),
      reason: z.string(),
    }),
  ),
});
export type RollbackReport = z.infer<typeof RollbackReportSchema>;

export const ActionReplySchema = z.object({
  execution: ExecutionViewSchema,
  rollback: RollbackReportSchema.optional(),
});
export type ActionReply = z.infer<typeof ActionReplySchema>;

// --- requests -------------------------------------------------------------------------------

const Text = (max: number) => z.string().trim().min(1).max(max);
const Ref = z.string().trim().min(1).max(200);

export const EXECUTION_LIST_LIMITS = Object.freeze({ defaultLimit: 50, maxLimit: 200 });

/** `GET /api/executions` (and `GET /api/recovery`): filters, all optional, combined with AND. */
export const ExecutionListQuerySchema = z.object({
  /** One status or several, comma-separated (`FAILED,CANCELLED`); case-insensitive. */
  status: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(ExecutionStatusSchema).min(1).max(6))
    .optional(),
  sourceType: Ref.optional(),
  workflowId: Ref.optional(),
  appSlug: Ref.optional(),
  skillSlug: Ref.optional(),
  sessionId: Ref.optional(),
  workspaceId: Ref.optional(),
  /** Substring of the title, case-insensitive. */
  title: Text(200).optional(),
  type: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
    .optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(EXECUTION_LIST_LIMITS.maxLimit)
    .default(EXECUTION_LIST_LIMITS.defaultLimit),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: z.string().max(300).optional(),
});
export type ExecutionListQuery = z.infer<typeof ExecutionListQuerySchema>;

export const ExecutionDetailResponseSchema = z.object({
  execution: ExecutionViewSchema,
  logs: z.array(LogViewSchema),
});

export const ExecutionActionBodySchema = z.object({ action: ExecutionActionSchema });

/**
 * `POST /api/executions` (an extension, not in the spec): creates an execution of a registered
 * type. `steps` is shorthand for `input: {steps}` (the DEMO_STEPS type).
 */
export const CreateExecutionBodySchema = z.object({
  type: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
    .default('DEMO_STEPS'),
  title: Text(EXECUTION_LIMITS.maxTitle),
  sourceType: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .default('api'),
  input: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(z.unknown()).max(EXECUTION_LIMITS.maxSteps).optional(),
  workspaceId: Ref.optional(),
  sessionId: Ref.optional(),
  workflowId: Ref.optional(),
  appSlug: Ref.optional(),
  skillSlug: Ref.optional(),
  /** false: stays QUEUED until paused and resumed (or cancelled). Default true. */
  start: z.boolean().default(true),
});

export const RecoveryActionSchema = z.enum(['resume', 'retry', 'cancel', 'rollback']);
export const RecoveryBodySchema = z.object({
  executionId: z.string().trim().min(1).max(200),
  action: RecoveryActionSchema,
});

export const RecoveryItemSchema = ExecutionSummarySchema.extend({ failure: FailureViewSchema });
export const RecoveryListResponseSchema = z.object({
  executions: z.array(RecoveryItemSchema),
  nextCursor: z.string().nullable(),
});

const WorkspaceRef = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, 'not a workspace id');

/** `POST /api/panic`: default workspace = the caller's default one. */
export const PanicBodySchema = z.object({
  workspaceId: WorkspaceRef.optional(),
  sessionId: Ref.optional(),
});
/** `DELETE /api/panic` and `GET /api/panic` (body or query). */
export const PanicLiftSchema = z.object({ workspaceId: WorkspaceRef.optional() });

export const PanicResponseSchema = z.object({
  stopped: z.number().int(),
  executions: z.array(z.object({ id: z.string(), status: ExecutionStatusSchema })),
  workspaceId: z.string(),
  sessionId: z.string().nullable(),
  lockdown: z.boolean(),
});
export type PanicResponse = z.infer<typeof PanicResponseSchema>;

export const PanicStatusResponseSchema = z.object({
  workspaceId: z.string(),
  lockdown: z.boolean(),
  since: z.string().nullable(),
});
export type PanicStatusResponse = z.infer<typeof PanicStatusResponseSchema>;

/** `GET /api/executions`: one page of summaries, newest first; `nextCursor` null on the last page. */
export const ExecutionListResponseSchema = z.object({
  executions: z.array(ExecutionSummarySchema),
  nextCursor: z.string().nullable(),
});

/** `POST /api/executions`. */
export const CreateExecutionResponseSchema = z.object({ execution: ExecutionViewSchema });
