/**
 * The one place the console talks HTTP. Every call goes through `request`: same-origin fetch with
 * the browser's session cookie (never a token kept in the page), JSON both ways, and an `ApiError`
 * carrying the API's own `error` string and `code`. The typed functions of the other modules of
 * `api/` are thin wrappers, so that this layer can be swapped for a generated client.
 */
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

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Reads an error answer: the API always sends `{error, code}`; anything else gets a plain message. */
export async function errorFrom(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): fall back to the status line.
  }
  const message = typeof body.error === 'string' ? body.error : `${res.status} ${res.statusText || 'error'}`;
  const code = typeof body.code === 'string' ? body.code : 'HTTP_ERROR';
  return new ApiError(message, res.status, code, body);
}

export async function request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(`The service did not answer (${(err as Error).message})`, 0, 'NETWORK', {});
  }
  if (!res.ok) throw await errorFrom(res);
  return (await res.json()) as T;
}

export const get = <T>(path: string, query?: Query) => request<T>('GET', path, undefined, query);
export const post = <T>(path: string, body?: unknown, query?: Query) =>
  request<T>('POST', path, body ?? {}, query);
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);
export const del = <T>(path: string, query?: Query, body?: unknown) =>
  request<T>('DELETE', path, body, query);
