import http from 'node:http';

/** One parsed server-sent event (comments are kept apart). */
export interface ParsedEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parses a text/event-stream body; `comments` are the `: ...` lines. */
export function parseSse(text: string): { events: ParsedEvent[]; comments: string[] } {
  const events: ParsedEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (block === '') continue;
    const event: ParsedEvent = { data: '' };
    const data: string[] = [];
    let isEvent = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        comments.push(line.slice(1).trim());
        continue;
      }
      const i = line.indexOf(':');
      const name = line.slice(0, i);
      const value = line.slice(i + 1).replace(/^ /, '');
      if (name === 'data') data.push(value);
      else if (name === 'id') event.id = value;
      else if (name === 'event') event.event = value;
      else continue;
      isEvent = true;
    }
    event.data = data.join('\n');
    if (isEvent && data.length > 0) events.push(event);
  }
  return { events, comments };
}

/** An open SSE response read over a real socket. */
export interface SseConnection {
  res: http.IncomingMessage;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the received text satisfies `predicate` (rejects after `timeoutMs`). */
  until(predicate: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves with the whole body once the server ends the response. */
  ended: Promise<string>;
  /** Aborts the request: the client goes away. */
  abort(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      let body = '';
      const waiters = new Set<() => void>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        for (const w of [...waiters]) w();
      });
      const ended = new Promise<string>((resolveEnd, rejectEnd) => {
        res.on('end', () => resolveEnd(body));
        res.on('error', rejectEnd);
      });
      // Keeps a rejected `ended` that nobody awaits (an aborted connection) from failing the run.
      ended.catch(() => undefined);
      resolve({
        res,
        text: () => body,
        ended,
        abort: () => req.destroy(),
        until(predicate, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const check = () => {
              if (predicate(body)) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(body);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out waiting; received so far:\n${body}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      });
    });
    req.on('error', reject);
  });
}
