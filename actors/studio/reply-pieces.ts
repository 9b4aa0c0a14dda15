/**
 * The pieces of a model's reply on their way to a client over SSE (docs/studio.md, "Pieces of the
 * reply"). Each piece is sent at once while the client keeps up; while its socket is congested
 * (`writableNeedDrain`), pieces are joined into one pending text and sent as one event on 'drain'.
 * The pending text is bounded: past `maxPendingChars`, further pieces are dropped (the final reply,
 * sent separately, still carries the whole text).
 */
export interface CongestedClient {
  readonly writableNeedDrain: boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export class ReplyPieces {
  private pending = '';
  private waitingForDrain = false;
  private closed = false;
  /** Characters dropped because the pending text was full. */
  dropped = 0;

  constructor(
    private readonly client: CongestedClient,
    private readonly send: (delta: string) => void,
    private readonly maxPendingChars = 64_000,
  ) {}

  push(delta: string): void {
    if (this.closed || delta === '') return;
    if (this.pending.length + delta.length > this.maxPendingChars) {
      this.dropped += delta.length;
      return;
    }
    this.pending += delta;
    this.flush();
  }

  /** Sends the pending text now if the client keeps up (or `force`: before the final reply). */
  flush(force = false): void {
    if (this.closed || this.pending === '') return;
    if (!force && this.client.writableNeedDrain) {
      if (!this.waitingForDrain) {
        this.waitingForDrain = true;
        this.client.once('drain', () => {
          this.waitingForDrain = false;
          this.flush();
        });
      }
      return;
    }
    const delta = this.pending;
    this.pending = '';
    this.send(delta);
  }

  /** No piece is sent after this (the final reply went, or the client left). */
  close(): void {
    this.closed = true;
    this.pending = '';
  }
}
