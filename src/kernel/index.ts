/** The actor kernel: define actors, host them on a transport, talk to them. See docs/kernel.md. */
export {
  defineActor,
  type ActivationContext,
  type ActorContext,
  type ActorDefinition,
  type ActorDefinitionInput,
  type ActorRef,
  type AnyActorDefinition,
  type Deferred,
  type DeferredWork,
  type MessageHandler,
} from './actor-definition';
export {
  createActorSystem,
  type ActorSystem,
  type ActorSystemOptions,
  type ActorSystemStatus,
  type TurnCounts,
  type TurnOutcome,
} from './actor-system';
export type { ClaimOptions, DedupeRecord, DedupeStore } from './dedupe-store';
export { CANCEL_TYPE, REPLY_TYPE } from './envelopes';
export { isStableEnvelopeId, stableEnvelopeId } from './ids';
export type { SystemPhase } from './kernel-runtime';
export { snapshotWorkCounts, type WorkCounts } from './work-counters';
export type {
  ActorSystemApi,
  BroadcastListenOptions,
  BroadcastOptions,
  EnvelopeAuth,
  MessageSchemas,
  RequestOptions,
} from './kernel.types';
export { LayeredDedupeStore, type LayeredDedupeStoreOptions } from './layered-dedupe-store';
export { MemoryDedupeStore, type MemoryDedupeStoreOptions } from './memory-dedupe-store';
export {
  backoffDelay,
  classifyError,
  DEFAULT_SUPERVISION,
  type ErrorKind,
  type SupervisionPolicy,
} from './supervision';
