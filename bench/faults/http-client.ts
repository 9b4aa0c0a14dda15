import { Pool } from 'undici';

/** What a request came to: an HTTP status, or no answer at all. */
export type Outcome = number | 'network' | 'timeout';

export interface Answer {
  status: Outcome;
  /** The JSON body, when there was one. */
  json?: Record<string, unknown>;
  /** Epoch ms at which it was sent and at which its answer (or failure) came. */
  start: number;
  end: number;
  /** Response headers (lower-case names), when answered. */
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * The load's HTTP client: one keep-alive pool to the api node on 127.0.0.1, a deadline per request
 * above the service's own (`REQUEST_TIMEOUT_MS`, 15 s), so that a 504 is the service's and not
 * ours. Never throws: a reset or refused connection is `network`, a request past the deadline
 * `timeout`.
 */
export class HttpClient {
  private readonly pool: Pool;

  constructor(
    readonly baseUrl: string,
    connections: number,
    private readonly timeoutMs = 20_000,
  ) {
    this.pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  }

  async send(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> {
    const start = Date.now();
    try {
      const res = await this.pool.request({
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.body.text();
      let json: Record<string, unknown> | undefined;
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, json, start, end: Date.now(), headers: res.headers };
    } catch (err) {
      const name = (err as Error)?.name;
      const status: Outcome = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
      return { status, start, end: Date.now() };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
