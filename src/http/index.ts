/** The front door: build the app, listen, and the helpers route modules use. See docs/http.md. */
export { buildApp } from './app';
export type { AppDeps, ResolvedAppDeps, RouteModule } from './app.types';
export { errorMiddleware, toHttpFailure, type HttpFailure } from './error.middleware';
export {
  idempotencyByRoute,
  idempotencyMiddleware,
  secretAnswer,
  type IdempotencyMode,
  type KeptHttpAnswer,
} from './idempotency.middleware';
export { CacheIdempotencyStore } from './idempotency/cache-idempotency.store';
export {
  IdempotencyKeeper,
  IdempotentTurn,
  type Begun,
  type IdempotencyKeeperOptions,
  type KeyedCall,
} from './idempotency/idempotency-keeper';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyScope,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency/idempotency-key';
export type { IdempotencyRecord, IdempotencyStore, NotKept } from './idempotency/idempotency-store';
export { listen, type HttpServerHandle, type ListenOptions } from './listen';
export { REQUEST_ID_HEADER, requestIdFrom } from './request-context.middleware';
export { formatSseEvent, writeSse, writeSseFirstThenRest, type SseEnd, type SseOptions } from './sse';
export { parseBody, parseParams, parseQuery, validationError, type ValidationIssue } from './validation';
