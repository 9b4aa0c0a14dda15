import type { RateLimitDecision, RateLimiter } from '../../../src/store/cache';

/** Most points one node takes at once from an agent's shared counter. */
const MAX_CHUNK = 10;
/** Agents whose reservation a node remembers at most (expired ones are dropped first). */
const MAX_AGENTS = 10_000;

interface Reservation {
  /** Points taken from the shared counter and not used yet. */
  left: number;
  /** When the counter's window ends (the points go with it), `Date.now()` ms. */
  until: number;
  /** Points the shared counter had left at the last consume. */
  remaining: number;
}

/**
 * The per-agent tool-call limit with fewer trips to the shared counter: while an agent's window
 * has plenty of points left, a node takes `chunk` points at once (one Redis round trip for
 * `chunk` calls, instead of one per call) and spends them locally until the window ends. Close to
 * the limit (fewer than `2 × chunk` points left) it takes one point per call, so the limit stays
 * exact for one node. Cost of the saving: points a node reserved and did not use before the window
 * ends are lost, so with several nodes an agent near its limit may be refused up to
 * `(chunk − 1) × (nodes − 1)` calls early. `chunk` is `points / 60`, between 1 and 10 (600 per
 * minute → 10; 40 per minute → 1, exact).
 */
export class ReservingLimiter {
  private readonly reservations = new Map<string, Reservation>();
  readonly chunk: number;

  constructor(
    private readonly shared: RateLimiter,
    points: number,
  ) {
    this.chunk = Math.max(1, Math.min(MAX_CHUNK, Math.floor(points / 60)));
  }

  consume(key: string): Promise<RateLimitDecision> | RateLimitDecision {
    const now = Date.now();
    const held = this.reservations.get(key);
    if (held && held.left > 0 && held.until > now) {
      held.left -= 1;
      return {
        allowed: true,
        retryAfterMs: 0,
        remaining: held.remaining + held.left,
        resetMs: held.until - now,
      };
    }
    const take =
      this.chunk > 1 && held && held.until > now && held.remaining >= 2 * this.chunk ? this.chunk : 1;
    return this.take(key, take, now);
  }

  private async take(key: string, points: number, now: number): Promise<RateLimitDecision> {
    const decision = await this.shared.consume(key, points);
    if (!decision.allowed) {
      this.reservations.delete(key);
      return decision;
    }
    if (this.reservations.size >= MAX_AGENTS && !this.reservations.has(key)) this.prune(now);
    this.reservations.set(key, {
      left: points - 1,
      until: now + decision.resetMs,
      remaining: decision.remaining,
    });
    return decision;
  }

  private prune(now: number): void {
    for (const [key, r] of this.reservations) if (r.until <= now) this.reservations.delete(key);
    // Still full: forget the oldest (their unused points are lost, as at a window's end).
    for (const key of this.reservations.keys()) {
      if (this.reservations.size < MAX_AGENTS) break;
      this.reservations.delete(key);
    }
  }
}
