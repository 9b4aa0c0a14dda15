import type { Response } from 'express';

/**
 * The event-stream answer of one `POST /mcp` (Streamable HTTP): opened on the first message sent,
 * each JSON-RPC message one `message` event; the response to the request goes last and ends it.
 * Used only when the client accepts `text/event-stream` and something (progress) is sent before
 * the response; every other answer stays `application/json`.
 */
export class McpEventStream {
  private opened = false;

  constructor(private readonly res: Response) {}

  get isOpen(): boolean {
    return this.opened;
  }

  /** Sends the headers (once): a stream that stays open shows the client it is listening. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.res.status(200);
    this.res.setHeader('Content-Type', 'text/event-stream');
    this.res.setHeader('Cache-Control', 'no-cache, no-transform');
    this.res.flushHeaders();
  }

  send(message: unknown): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.open();
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** The last message (the response), then the end of the stream. */
  end(message: unknown): void {
    this.send(message);
    this.res.end();
  }
}

/** Whether the request's `Accept` takes an event stream. */
export function acceptsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').includes('text/event-stream');
}

/** A `notifications/progress` message. */
export function progressNotification(
  progressToken: string | number,
  progress: number,
  total: number | undefined,
  message: string,
) {
  return {
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken, progress, ...(total !== undefined ? { total } : {}), message },
  };
}
