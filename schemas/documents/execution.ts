import { z } from 'zod';
import { TokenScopeSchema } from '../auth';

/**
 * Executions (docs/executions.md): one persisted run of work made of steps, with the effects of
 * each step recorded for rollback. Collection `executions` (`_id` = the public id `exe_…`) and its
 * append-only log `execution_logs`. Statuses are upper case in documents and in every response
 * (COMPATIBILITY, "Executions, recovery, panic, notifications").
 */

export const EXECUTION_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
] as const;
export const ExecutionStatusSchema = z.enum(EXECUTION_STATUSES);
export type ExecutionStatus = z.infer<typeof ExecutionStatusSchema>;

/** Statuses where no work runs and none will without an action. */
export const FINAL_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED'] as const;
export const FinalStatusSchema = z.enum(FINAL_STATUSES);
export type FinalStatus = z.infer<typeof FinalStatusSchema>;

/** Statuses panic cancels (every PAUSED one, a hold over a finished execution included). */
export const ACTIVE_STATUSES = ['QUEUED', 'RUNNING', 'PAUSED'] as const;

export const EXECUTION_ACTIONS = ['pause', 'resume', 'retry', 'cancel', 'rollback'] as const;
export const ExecutionActionSchema = z.enum(EXECUTION_ACTIONS);
export type ExecutionAction = z.infer<typeof ExecutionActionSchema>;

export const STEP_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export const StepStatusSchema = z.enum(STEP_STATUSES);

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;

export const EXECUTION_LIMITS = Object.freeze({
  /** Steps one execution may run. */
  maxSteps: 500,
  /** Effects one step may record. */
  maxEffectsPerStep: 100,
  /** Log lines kept per execution (older ones are pruned). */
  keptLogs: 1000,
  /** Characters of one log message (longer ones are cut). */
  maxLogMessage: 4000,
  /** JSON size of a runner's input, a step's output or an execution's result, in characters. */
  maxJsonChars: 64 * 1024,
  /** JSON size of one effect's undo data, in characters (larger: recorded without undo data). */
  maxUndoChars: 256 * 1024,
  maxTitle: 500,
});

/** Effect kinds: lower case, e.g. `file`, `mem_set`, `db_rows`, `memory`. */
export const EffectKindSchema = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);

/**
 * One change a step made in the world, and what undoing it needs. `undo` is internal (it may name
 * internal ids) and is never returned; the public view is `{kind, target, undone}`.
 */
export const EffectSchema = z.object({
  kind: EffectKindSchema,
  /** What was changed, for people (a path, a key); never an internal id. */
  target: z.string().max(600),
  /** The undoer's data for this effect (`EffectUndoer` of the kind); absent = cannot be undone. */
  undo: z.record(z.string(), z.unknown()).optional(),
  /** When a rollback undid it. */
  undoneAt: z.date().optional(),
});
export type Effect = z.infer<typeof EffectSchema>;

export const StepErrorSchema = z.object({ code: z.string().max(64), message: z.string().max(1000) });

export const StepRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string().max(200),
  status: StepStatusSchema,
  /** Runs of this step (a retry of a failed step runs it again). */
  attempts: z.number().int().positive(),
  effects: z.array(EffectSchema),
  output: z.unknown().optional(),
  startedAt: z.date(),
  endedAt: z.date().optional(),
  error: StepErrorSchema.optional(),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

/** Who the work runs as (internal): the creator, or the account's default agent for tools. */
export const RunAsSchema = z.object({
  subjectType: z.enum(['account', 'agent']),
  accountId: z.string(),
  agentId: z.string().optional(),
  /** The scopes of the named token that created it: its tool calls get no more. */
  scopes: z.array(TokenScopeSchema).optional(),
});
export type RunAs = z.infer<typeof RunAsSchema>;

export const ExecutionDocumentSchema = z.object({
  _id: z.string().regex(/^exe_[A-Za-z0-9]{8,64}$/),
  accountId: z.string(),
  workspaceId: z.string(),
  sessionId: z.string().optional(),
  workflowId: z.string().optional(),
  appSlug: z.string().optional(),
  skillSlug: z.string().optional(),
  agentRef: z.string().optional(),
  /** Upper-case kind of work, e.g. CHAT_EXECUTION, TOOL_EXECUTION, DEMO_STEPS: picks the StepRunner. */
  type: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/),
  status: ExecutionStatusSchema,
  sourceType: z.string().max(64),
  title: z.string().max(EXECUTION_LIMITS.maxTitle),
  /** The runner's input (internal: not returned). */
  input: z.unknown(),
  runAs: RunAsSchema,
  steps: z.array(StepRecordSchema),
  /** `completedSteps`: steps done in order from the first (the next step to run); `totalSteps`: null when the runner does not know. */
  progress: z.object({
    completedSteps: z.number().int().nonnegative(),
    totalSteps: z.number().int().nonnegative().nullable(),
  }),
  /** The step in flight: its run token (a report with another token is stale) and its deadline. */
  current: z
    .object({
      index: z.number().int().nonnegative(),
      runId: z.string(),
      startedAt: z.date(),
      deadline: z.date(),
      /** The lease of the node running the step (renewed while it runs); past it, the sweeper fails the step. */
      leaseUntil: z.date().optional(),
      /** The node holding the lease (for logs and operators). */
      leaseNode: z.string().max(128).optional(),
    })
    .optional(),
  /** A pause over a finished execution: the status resume restores. */
  hold: z.object({ previousStatus: FinalStatusSchema, at: z.date() }).optional(),
  failure: z
    .object({ whatFailed: z.string(), code: z.string(), message: z.string(), at: z.date() })
    .optional(),
  /** The last pause or cancel: who and before which step. */
  stopped: z
    .object({
      action: z.enum(['pause', 'cancel', 'panic']),
      at: z.date(),
      /** The first step the stop kept from running (absent for panic: the first step not completed). */
      beforeStep: z.number().int().nonnegative().optional(),
      panicId: z.string().optional(),
      /** Sequence number of the panic's log line (reserved by the bulk write itself). */
      logSeq: z.number().int().positive().optional(),
    })
    .optional(),
  /** A rollback in flight (other actions wait for it: 409). */
  lock: z.object({ kind: z.literal('rollback'), at: z.date(), until: z.date() }).optional(),
  lastRollback: z.object({ at: z.date(), undone: z.number().int(), notUndone: z.number().int() }).optional(),
  result: z.unknown().optional(),
  /** Last log sequence number given out (logs are numbered from 1). */
  logSeq: z.number().int().nonnegative(),
  createdAt: z.date(),
  updatedAt: z.date(),
  endedAt: z.date().optional(),
  version: z.number().int().nonnegative(),
});
export type ExecutionDocument = z.infer<typeof ExecutionDocumentSchema>;

/** One log line (`_id` = `<executionId>:<seq>`: a repeated append is a harmless duplicate). */
export const ExecutionLogDocumentSchema = z.object({
  _id: z.string(),
  executionId: z.string(),
  seq: z.number().int().positive(),
  level: LogLevelSchema,
  message: z.string(),
  at: z.date(),
});
export type ExecutionLogDocument = z.infer<typeof ExecutionLogDocumentSchema>;
