import type { Pool } from 'undici';

/** One server-sent event as the benchmark received it. */
export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
  /** Epoch ms when the chunk holding it arrived. */
  receivedAt: number;
}

/** A JSON request through the pool: status and parsed body (text when not JSON). */
export async function callJson(
  pool: Pool,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await pool.request({
    method,
    path,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, body: parsed };
}

/**
 * Reads an SSE body to its end, calling `onEvent` for each event (comments such as heartbeats are
 * skipped; `data` is parsed as JSON, as every event of the service carries JSON).
 */
export async function readSse(
  body: AsyncIterable<Uint8Array>,
  onEvent: (e: SseEvent) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    const receivedAt = Date.now();
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = parseSseBlock(buffer.slice(0, end), receivedAt);
      buffer = buffer.slice(end + 2);
      if (event) onEvent(event);
    }
  }
}

/** One event's block (the text between two blank lines), or undefined for a comment-only block. */
export function parseSseBlock(block: string, receivedAt: number): SseEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'event') event = value;
    else if (name === 'id') id = value;
    else if (name === 'data') data.push(value);
  }
  return data.length > 0
    ? { event, id, data: JSON.parse(data.join('\n')) as unknown, receivedAt }
    : undefined;
}

/** Percentile of sorted values (nearest rank); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The item of median `key` (the lower middle one of an even count). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  if (items.length === 0) throw new Error('medianBy: no items');
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** p50, p99 and max of a list of milliseconds, rounded to 0.1 ms. */
export function spread(values: readonly number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    p50: r(percentile(sorted, 50)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted.at(-1) ?? Number.NaN),
  };
}

/** Runs `fn` over `items` with at most `concurrency` at once; results in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return out;
}
