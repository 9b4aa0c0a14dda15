/**
 * The one place the console talks HTTP. Every JSON call goes through the typed client generated
 * from the service's OpenAPI document (`client/`, openapi-fetch): paths, parameters, bodies and
 * answers are checked by the compiler against the route contracts. No token is given, so the
 * browser's session cookie goes along (same origin), and nothing is ever kept in the page.
 * `call` turns the client's `{data, error}` into the answer or an `ApiError` carrying the API's own
 * `error` string and `code`. Event streams are not JSON and stay in `sse.ts`.
 */
import { createApiClient } from '../../../client/index';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The typed client of the whole API (same origin, the session cookie). */
export const api = createApiClient({ headers: { accept: 'application/json' } });

/** Builds the `ApiError` of an error answer whose body has already been read (or was not JSON). */
export function apiError(status: number, statusText: string, raw: unknown): ApiError {
  const body = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const message = typeof body.error === 'string' ? body.error : `${status} ${statusText || 'error'}`;
  const code = typeof body.code === 'string' ? body.code : 'HTTP_ERROR';
  return new ApiError(message, status, code, body);
}

/** Reads an error answer: the API always sends `{error, code}`; anything else gets a plain message. */
export async function errorFrom(res: Response): Promise<ApiError> {
  let body: unknown = {};
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy's page): fall back to the status line.
  }
  return apiError(res.status, res.statusText, body);
}

interface ClientResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * Awaits one call of the typed client: its documented answer, or an `ApiError` (the API's
 * `error` and `code`; a network failure becomes code `NETWORK`).
 */
export async function call<D>(pending: Promise<ClientResult<D>>): Promise<D> {
  let result: ClientResult<D>;
  try {
    result = await pending;
  } catch (err) {
    throw new ApiError(`The service did not answer (${(err as Error).message})`, 0, 'NETWORK', {});
  }
  const { data, error, response } = result;
  if (!response.ok || error !== undefined) throw apiError(response.status, response.statusText, error);
  return data as D;
}

/** Drops empty filters, so that `?status=` never reaches the API's query validation. */
export function compact<T extends Record<string, unknown>>(query: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as T;
}

/**
 * For the few routes whose contract documents its answer only as an open object (the app store's
 * install/readiness/updates, the skill store, ops): the console's own view of the answer,
 * which the contract does not yet spell out. Each use is a contract to tighten (docs/console.md,
 * "Gaps"); every other call is typed by the document itself.
 */
export async function callLoose<T>(pending: Promise<ClientResult<unknown>>): Promise<T> {
  return (await call(pending)) as T;
}

/** Picks the member of a union answer that a request asked for (a route answering several shapes). */
export type AnswerWith<U, K extends PropertyKey> = Extract<U, Record<K, unknown>>;
