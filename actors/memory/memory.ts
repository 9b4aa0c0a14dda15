/**
 * Governed memory (docs/memory.md) has no actor of its own: its changes are recorded as finished
 * executions. `startRuntime` builds the `MemoryApi` (`services.memory`) and registers the
 * `memory` effect undoer on the executions service, so that a rollback on any node can undo a
 * memory change.
 */
export { memoryCollections } from './memory.collection';
export { MemoryApi, memoryUndoer } from './memory.service';
