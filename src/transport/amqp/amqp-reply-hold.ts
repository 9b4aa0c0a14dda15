/** One reply waiting for a link: its queue, its JSON text, and when its requester stops waiting. */
interface HeldReply {
  readonly queue: string;
  readonly json: string;
  readonly until: number;
}

/** What a release did: replies handed on, and replies dropped because their requester gave up. */
export interface Released {
  sent: number;
  expired: number;
}

/**
 * Replies that could not be published (the link is down or blocked, or it dropped between a
 * reply and its flush), kept in memory for the next link instead of being dropped.
 *
 * Why: by then the turn that made the reply is over and its command acknowledged (or about to be):
 * nothing would ever answer the requester, who would wait for its deadline and see a 504 for work
 * that was done. A reply is kept until its envelope's deadline (its requester stops waiting then)
 * and at most `maxHoldMs`; the oldest go first when more than `maxBytes` wait. The first link that
 * comes back sends them, in the order they were made, before anything newer.
 */
export class ReplyHold {
  private held: HeldReply[] = [];
  private bytes = 0;

  constructor(
    /** Most JSON text kept (the oldest replies are dropped beyond it). */
    private readonly maxBytes: number,
    /** Longest a reply is kept, whatever its deadline. */
    private readonly maxHoldMs: number,
    /** Told about replies dropped to stay within `maxBytes`. */
    private readonly onOverflow: (dropped: number) => void,
  ) {}

  get size(): number {
    return this.held.length;
  }

  /** Keeps one encoded reply for `queue`; `deadline` (epoch ms) is its envelope's, when known. */
  hold(queue: string, json: string, deadline?: number, now = Date.now()): void {
    const cap = now + this.maxHoldMs;
    const until = deadline !== undefined && Number.isFinite(deadline) ? Math.min(deadline, cap) : cap;
    this.held.push({ queue, json, until });
    this.bytes += json.length;
    if (this.bytes <= this.maxBytes) return;
    let dropped = 0;
    while (this.bytes > this.maxBytes && this.held.length > 1) {
      this.bytes -= this.held.shift()!.json.length;
      dropped++;
    }
    this.onOverflow(dropped);
  }

  /** Keeps a batch of encoded replies that failed to go out; their deadlines are read back. */
  holdAll(queue: string, jsons: readonly string[], now = Date.now()): void {
    for (const json of jsons) this.hold(queue, json, deadlineOf(json), now);
  }

  /**
   * Hands every reply still wanted to `send`, oldest first, and forgets them all. `send` must not
   * throw (a reply batcher's `add`: its publish failures come back through `holdAll`).
   */
  release(send: (queue: string, json: string) => void, now = Date.now()): Released {
    const held = this.held;
    this.held = [];
    this.bytes = 0;
    let sent = 0;
    for (const reply of held) {
      if (reply.until < now) continue;
      send(reply.queue, reply.json);
      sent++;
    }
    return { sent, expired: held.length - sent };
  }
}

/** The `deadline` of an encoded envelope (this node wrote it; only failures come this way). */
function deadlineOf(json: string): number | undefined {
  try {
    const deadline = (JSON.parse(json) as { deadline?: unknown }).deadline;
    return typeof deadline === 'number' ? deadline : undefined;
  } catch {
    return undefined;
  }
}
