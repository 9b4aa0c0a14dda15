/** The front door: build the app, listen, and the helpers route modules use. See docs/http.md. */
export { buildApp } from './app';
export type { AppDeps, ResolvedAppDeps, RouteModule } from './app.types';
export { errorMiddleware, toHttpFailure, type HttpFailure } from './error.middleware';
export { listen, type HttpServerHandle, type ListenOptions } from './listen';
export { REQUEST_ID_HEADER, requestIdFrom } from './request-context.middleware';
export { formatSseEvent, writeSse, type SseEnd, type SseOptions } from './sse';
export { parseBody, parseParams, parseQuery, validationError, type ValidationIssue } from './validation';
