import { z } from 'zod';
import { ExecutionCreateMessageSchema } from '../../schemas/messages/executions';
import type { ExecutionView } from '../../schemas/http/executions';

/**
 * `execution.createAndFollow` (a stream): creates an execution and runs its first step in the
 * handler of this request, so that what the step emits (`StepContext.emit`: the pieces of a
 * model's reply) travels on this request's stream, to the requester's node only, and not by
 * broadcast to every node like execution events. Items: `{type: 'created', execution}` first,
 * then `{type: 'emit', item}` for each emitted item; the stream completes once the step's report
 * is sent to the actor (the lifecycle itself is followed with `execution.watch`). Leaving the
 * stream does not stop the step. Always started (`start` is ignored).
 */
export const ExecutionCreateFollowMessageSchema = ExecutionCreateMessageSchema;

export type FollowItem = { type: 'created'; execution: ExecutionView } | { type: 'emit'; item: unknown };

export const FollowItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('created'), execution: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('emit'), item: z.unknown() }),
]);
