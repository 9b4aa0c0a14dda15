import type { z } from 'zod';

/**
 * Who may call a route, as the OpenAPI document states it (security schemes in `document.ts`):
 * - `none`: no credentials;
 * - `optional`: none, or a bearer token / session that, when present, must be valid;
 * - `sb`: a bearer token (account, agent key or named token) or the browser session cookie;
 * - `bearer`: a bearer token only (an agent key, `/agent/me`);
 * - `admin`: `ADMIN_TOKEN` as bearer, or an account listed in `ADMIN_EMAILS` (its session or token);
 * - `cron`: `CRON_SECRET` or `ADMIN_TOKEN` as bearer;
 * - `runtime`: a runtime credential (`sdk_…`) as bearer;
 * - `metrics`: `METRICS_TOKEN` as bearer when it is set, else none.
 */
export type RouteAuth = 'none' | 'optional' | 'sb' | 'bearer' | 'admin' | 'cron' | 'runtime' | 'metrics';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented answer: a zod schema for a JSON body, or the long form for other media or no body. */
export type ResponseContract =
  | z.ZodType
  | {
      readonly description?: string;
      /** Absent: the answer has no body (204, a redirect). */
      readonly schema?: z.ZodType;
      /** Default `application/json`; `text/event-stream`, `text/plain`, `text/html`… for the others. */
      readonly contentType?: string;
      readonly example?: unknown;
      /** Response headers worth knowing (`Location`, `Retry-After`…), name → description. */
      readonly headers?: Readonly<Record<string, string>>;
    };

/**
 * The contract of one route, declared beside its route module (`<area>.contract.ts`) and turned
 * into the OpenAPI document by `buildOpenApiDocument`. The schemas are the same zod objects the
 * handler parses with (`parseBody(X)`, `XResponseSchema.parse(...)`), so the document follows the
 * code; `test/unit/http/openapi-coverage.test.ts` fails when a registered route has no contract.
 */
export interface RouteContract {
  readonly method: HttpMethod;
  /** The Express path, as registered (`/api/executions/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly auth: RouteAuth;
  /** Grouping in the reference page; `defineContracts` fills it in. */
  readonly tags?: readonly string[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** A body other than JSON (a file upload): its media type. Default `application/json`. */
  readonly bodyContentType?: string;
  readonly bodyExample?: unknown;
  /** Success answers by status. Errors are added from `errors` and the auth/validation defaults. */
  readonly responses: Readonly<Record<number, ResponseContract>>;
  /** Error statuses this route may answer beyond the defaults (400 on input, 401/403 on auth). */
  readonly errors?: readonly number[];
  /** Takes an `Idempotency-Key` header (every authenticated mutation does; docs/http.md). */
  readonly idempotent?: boolean;
  readonly deprecated?: boolean;
}

/** A domain's contracts, tagged with the group they appear under in the reference page. */
export function defineContracts(tag: string, contracts: readonly RouteContract[]): readonly RouteContract[] {
  return contracts.map((c) => ({ ...c, tags: c.tags ?? [tag] }));
}

/** `GET /api/x/:id` → the key both the document and the coverage test use. */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
