/**
 * Reads the `data:` messages of a `text/event-stream` response as they come (for streams that
 * stay open). `next()` resolves the next message, or rejects after `timeoutMs`.
 */
export function sseMessages(res: Response, timeoutMs = 10_000) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: unknown[] = [];
  const pull = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = event.split('\n').find((l) => l.startsWith('data: '));
      if (data) queue.push(JSON.parse(data.slice(6)));
    }
  };
  return {
    async next(): Promise<unknown> {
      const until = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (Date.now() > until) throw new Error('no message in time');
        await Promise.race([pull(), new Promise((r) => setTimeout(r, until - Date.now()))]);
      }
      return queue.shift();
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
