/** One server-sent event as a test reads it: `data` parsed as JSON. */
export interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/**
 * The events of a `text/event-stream` body as they arrive (comments skipped, multi-line `data`
 * joined); ends with the body. An aborted request ends it with the fetch's AbortError.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: string | undefined;
      let event = 'message';
      let data: string | undefined;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const i = line.indexOf(': ');
        const [name, val] = i >= 0 ? [line.slice(0, i), line.slice(i + 2)] : [line, ''];
        if (name === 'id') id = val;
        if (name === 'event') event = val;
        if (name === 'data') data = data === undefined ? val : `${data}\n${val}`;
      }
      if (data !== undefined) yield { id, event, data: JSON.parse(data) as Record<string, unknown> };
    }
  }
}
