import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { notificationsActor } from '../notifications/notifications.actor';
import { notificationsCollection } from '../notifications/notifications.collection';
import { executionActor } from './execution.actor';
import { executionLogsCollection, executionsCollection } from './executions.collection';
import { panicActor } from './panic.actor';

export { createExecutionsService, type ExecutionsService } from './executions.service';
export { newExecutionId } from './executions.repo';
export { onExecutionEvents } from './execution-hub';
export type { StepRunner, StepContext, EffectUndoer, UndoContext } from './step-runners';

/** Collections of executions and notifications (indexes ensured at boot). */
export const executionsCollections = [
  executionsCollection,
  executionLogsCollection,
  notificationsCollection,
] as const;

/** The actors `execution`, `panic` and `notifications`, from the services. */
export function executionsActors(services: Services): AnyActorDefinition[] {
  const svc = services.executions;
  // The sweep of orphaned steps is a crew duty (actors/operations/operations.ts): it runs on the
  // duty's active node only; the conditional write still keeps two sweeps from both acting.
  return [executionActor(svc), panicActor(svc), notificationsActor(svc.notifications)];
}
