import { errorFrom } from './http';

/** One server-sent event: its name and its JSON data. */
export interface SseEvent<T = Record<string, unknown>> {
  event: string;
  id?: string;
  data: T;
}

/**
 * Splits a text/event-stream body into events (docs/http.md, "Server-sent events"): `event:`,
 * `id:` and `data:` lines, a blank line ending each event; comments (`: heartbeat`) skipped.
 */
export function parseSseChunk(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) continue;
    try {
      events.push({ event, id, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
    } catch {
      events.push({ event, id, data: { text: data.join('\n') } });
    }
  }
  return { events, rest };
}

/**
 * A POST answered with an event stream (the Studio's intent stream): `EventSource` only does GET,
 * so the body is read with fetch. HTTP errors before the stream (400, 403 lockdown) throw the
 * API's error; each event is handed to `onEvent` as it arrives.
 */
export async function postStream(
  path: string,
  body: unknown,
  onEvent: (e: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body) throw await errorFrom(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parsed = parseSseChunk(buffer + value);
    buffer = parsed.rest;
    for (const e of parsed.events) onEvent(e);
  }
  for (const e of parseSseChunk(buffer + '\n\n').events) onEvent(e);
}

/**
 * Follows `GET /api/executions/{id}/events` with `EventSource` (the cookie goes along, and the
 * browser reconnects with `Last-Event-ID`, so no log line is lost). Returns the closer.
 */
export function followExecution(
  id: string,
  onEvent: (e: SseEvent) => void,
  onError?: (message: string) => void,
): () => void {
  const source = new EventSource(`/api/executions/${encodeURIComponent(id)}/events`, {
    withCredentials: true,
  });
  const names = ['execution', 'step', 'log', 'error', 'done'];
  for (const name of names) {
    source.addEventListener(name, (ev) => {
      const msg = ev as MessageEvent<string>;
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(msg.data) as Record<string, unknown>;
      } catch {
        // The `error` event of a dropped connection carries no data.
        if (name === 'error') return;
      }
      onEvent({ event: name, id: msg.lastEventId, data });
      if (name === 'done') source.close();
    });
  }
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) onError?.('The live stream closed');
  };
  return () => source.close();
}
