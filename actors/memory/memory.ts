import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { registerMemoryUndoer } from './memory.service';

export { memoryCollections } from './memory.collection';
export { memoryApiOf } from './memory.service';

/**
 * Governed memory (docs/memory.md) has no actor of its own: its changes are recorded as finished
 * executions. This registers the `memory` effect undoer on the process's executions service (so
 * that a rollback on any node can undo a memory change) and returns no actor definition, so that
 * `actorDefinitions` can list it like the other domains.
 */
export function memoryActors(services: Services): AnyActorDefinition[] {
  registerMemoryUndoer(services);
  return [];
}
