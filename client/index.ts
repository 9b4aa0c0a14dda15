import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

/** The wire form of every error: `{ error, code, ...details }` (switch on `code`). */
export type ErrorBody = components['schemas']['ErrorBody'];

export interface ApiClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's origin, `http://127.0.0.1:3000`; default: the page's own origin (the console). */
  readonly baseUrl?: string;
  /**
   * A bearer token (account token, agent key or named token). Without one, the browser's session
   * cookie is sent, as `credentials: 'same-origin'` does by default.
   */
  readonly token?: string;
}

export type ApiClient = Client<paths>;

/**
 * A typed client of the whole HTTP API: every path, parameter, body and answer checked by the
 * compiler against the service's OpenAPI document (openapi-fetch over `schema.d.ts`).
 *
 * ```ts
 * const api = createApiClient({ baseUrl: 'http://127.0.0.1:3000', token });
 * const { data, error } = await api.GET('/api/executions', { params: { query: { status: 'RUNNING' } } });
 * ```
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { token, baseUrl, headers, ...rest } = options;
  return createClient<paths>({
    baseUrl: baseUrl ?? '',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as object | undefined) },
    ...rest,
  });
}
