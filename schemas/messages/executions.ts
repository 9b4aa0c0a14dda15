import { z } from 'zod';
import {
  EXECUTION_LIMITS,
  EffectSchema,
  ExecutionActionSchema,
  ExecutionStatusSchema,
} from '../documents/execution';
import {
  NotificationStatusSchema,
  NotificationTypeSchema,
  NOTIFICATION_LIMITS,
} from '../documents/notification';
import { ExecutionSummarySchema, LogViewSchema, StepViewSchema } from '../http/executions';

/**
 * Messages of executions, panic and notifications (docs/executions.md).
 *
 * `execution:<exe_id>` (one execution):
 * - `execution.create` → `{execution}`: the first message of a new id; QUEUED, then run unless `start: false`.
 * - `execution.act {action, via}` → `{execution, rollback?}`: pause, resume, retry, cancel, rollback.
 * - `execution.watch {}` → a stream of `ExecutionEvent`s until the execution ends.
 * - internal (sent by the actor to itself only): `execution.run`, `execution.step`,
 *   `execution.stepDone`, `execution.stepFailed`.
 *
 * `panic:<workspace id>`: `panic.start {sessionId?}`, `panic.lift {}`, `panic.status {}`.
 * `notifications:<account id>`: `notifications.create`, `notifications.update`, `notifications.markAllRead`.
 *
 * Broadcasts: `execution.event {executionId, events}` (every event of every execution, for the
 * watchers on each node) and `workspace.panic {workspaceId, active, sessionId?, executionIds?}`.
 */

const Ref = z.string().min(1).max(200);

export const ExecutionCreateMessageSchema = z.object({
  type: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/),
  title: z.string().min(1).max(EXECUTION_LIMITS.maxTitle),
  sourceType: z.string().min(1).max(64).default('api'),
  /** The runner's input, checked by the runner's schema. */
  input: z.unknown().default({}),
  /** Default: the caller's default workspace. Must be a workspace of the caller's account. */
  workspaceId: Ref.optional(),
  sessionId: Ref.optional(),
  workflowId: Ref.optional(),
  appSlug: Ref.optional(),
  skillSlug: Ref.optional(),
  /** false: stays QUEUED (until paused and resumed, or cancelled). */
  start: z.boolean().default(true),
});
export type ExecutionCreateMessage = z.input<typeof ExecutionCreateMessageSchema>;

export const ExecutionActMessageSchema = z.object({
  action: ExecutionActionSchema,
  /** Which route asked (the notification's type: `workflow` for actions, `recovery` for recovery). */
  via: z.enum(['actions', 'recovery']).default('actions'),
});

export const ExecutionWatchMessageSchema = z.object({});
export const ExecutionRunMessageSchema = z.object({});
export const ExecutionStepMessageSchema = z.object({
  runId: z.string(),
  index: z.number().int().nonnegative(),
});

/** What a StepRunner's step reported (checked again here: it crosses the transport). */
export const StepOutcomeSchema = z.object({
  name: z.string().max(200).optional(),
  effects: z
    .array(EffectSchema.omit({ undoneAt: true }))
    .max(EXECUTION_LIMITS.maxEffectsPerStep)
    .default([]),
  output: z.unknown().optional(),
  /** The execution's result (set on completion, or kept for the last step). */
  result: z.unknown().optional(),
  /** The runner wants the execution paused after this step (e.g. waiting for an approval). */
  pause: z.string().max(500).optional(),
  /** This was the last step (for runners whose number of steps is not known up front). */
  last: z.boolean().optional(),
});
export type StepOutcome = z.input<typeof StepOutcomeSchema>;

export const ExecutionStepDoneMessageSchema = z.object({
  runId: z.string(),
  index: z.number().int().nonnegative(),
  outcome: StepOutcomeSchema,
});

export const ExecutionStepFailedMessageSchema = z.object({
  runId: z.string(),
  index: z.number().int().nonnegative(),
  error: z.object({ code: z.string().max(64), message: z.string().max(1000) }),
  /** The step was stopped by its AbortSignal (panic, shutdown), not by its own failure. */
  aborted: z.boolean().default(false),
  name: z.string().max(200).optional(),
});

/**
 * What `execution.watch` streams, and what the `execution.event` broadcast carries. The SSE route
 * uses `type` as the event name. A stream ends after `done`; an execution stopped by panic sends
 * `error` then `done`; a failed one `execution`, `error`, `done`.
 */
export const ExecutionEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('execution'), execution: ExecutionSummarySchema }),
  z.object({ type: z.literal('step'), executionId: z.string(), step: StepViewSchema }),
  z.object({ type: z.literal('log'), executionId: z.string(), log: LogViewSchema }),
  z.object({ type: z.literal('error'), executionId: z.string(), error: z.string(), code: z.string() }),
  z.object({ type: z.literal('done'), executionId: z.string(), status: ExecutionStatusSchema }),
]);
export type ExecutionEvent = z.infer<typeof ExecutionEventSchema>;

export const EXECUTION_EVENT_BROADCAST = 'execution.event';
export const ExecutionEventBroadcastSchema = z.object({
  executionId: z.string(),
  events: z.array(ExecutionEventSchema),
});
/**
 * The events of several executions written in the same turn of one node, in one broadcast (a
 * burst of streams answered at once ends a thousand executions within moments): `items` in the
 * order they were published. Each item is read only by a node that watches its execution.
 */
export const EXECUTION_EVENTS_BROADCAST = 'execution.events';
export const ExecutionEventsBroadcastSchema = z.object({
  items: z.array(ExecutionEventBroadcastSchema).min(1),
});
export type ExecutionEventsBroadcast = z.infer<typeof ExecutionEventsBroadcastSchema>;

/**
 * The full body of the `workspace.panic` broadcast (the tool router reads `workspaceId` only):
 * `executionIds` are the executions panic cancelled, whose in-flight steps every node aborts.
 */
export const WorkspacePanicEventSchema = z.object({
  workspaceId: z.string().min(1),
  active: z.boolean().optional(),
  sessionId: z.string().optional(),
  executionIds: z.array(z.string()).max(1000).optional(),
  /** When the panic cancelled them (epoch ms): steps decided before it never start. */
  at: z.number().int().nonnegative().optional(),
});
export type WorkspacePanicEvent = z.infer<typeof WorkspacePanicEventSchema>;

export const PanicStartMessageSchema = z.object({ sessionId: Ref.optional() });
export const PanicLiftMessageSchema = z.object({});
export const PanicStatusMessageSchema = z.object({});

export const NotificationCreateMessageSchema = z.object({
  title: z.string().min(1).max(NOTIFICATION_LIMITS.maxTitle),
  body: z.string().max(NOTIFICATION_LIMITS.maxBody).default(''),
  type: NotificationTypeSchema.default('task'),
  executionId: Ref.optional(),
  workspaceId: Ref.optional(),
});
export const NotificationUpdateMessageSchema = z.object({
  notificationId: z.string().min(1).max(100),
  status: NotificationStatusSchema,
});
export const NotificationMarkAllReadMessageSchema = z.object({});
