import { AppError } from '../../schemas/errors';
import type { McpSession } from './mcp-session';

/**
 * The bound on a pool's stdio children (docs/connectors.md, "Connection pool"): at most `max` at
 * once in the process, and one account at most all but one of them (at least 1), so that another
 * account's connector can always start. Counts the sessions being started too.
 */
export class StdioBudget {
  private opening = 0;
  private readonly openingBy = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A stdio session of `accountId` starts (+1) or is done starting (-1), opened or not. */
  countOpening(accountId: string, delta: 1 | -1): void {
    this.opening += delta;
    const left = (this.openingBy.get(accountId) ?? 0) + delta;
    if (left > 0) this.openingBy.set(accountId, left);
    else this.openingBy.delete(accountId);
  }

  /**
   * Makes room for one more stdio session of `accountId` among the pool's `sessions`: past its
   * share, the account's own least recently used idle session is closed, or the call refused while
   * all of them are busy. Within the bound, the least recently used idle session of any account is
   * closed when the new one would pass it.
   */
  async makeRoom(
    accountId: string,
    sessions: readonly McpSession[],
    close: (connectorId: string) => Promise<void>,
  ): Promise<void> {
    const stdio = sessions.filter((s) => s.spec.transport === 'stdio' && !s.closed);
    const share = Math.max(1, this.max - 1);
    const mine = stdio.filter((s) => s.spec.accountId === accountId);
    if (mine.length + (this.openingBy.get(accountId) ?? 0) >= share) {
      const ownIdle = leastRecentlyUsedIdle(mine);
      if (!ownIdle) {
        throw new AppError(
          'UNAVAILABLE',
          `This account's stdio MCP connectors are all busy on this worker (at most ${share} of ${this.max} per account); retry shortly`,
          { reason: 'connect', retryAfter: 1 },
          { retryable: true },
        );
      }
      await close(ownIdle.spec.id);
      return;
    }
    if (stdio.length + this.opening < this.max) return;
    const idle = leastRecentlyUsedIdle(stdio);
    if (!idle) {
      throw new AppError(
        'UNAVAILABLE',
        `Too many stdio MCP connectors busy on this worker (limit ${this.max}); retry shortly`,
        { reason: 'connect', retryAfter: 1 },
        { retryable: true },
      );
    }
    await close(idle.spec.id);
  }
}

function leastRecentlyUsedIdle(sessions: readonly McpSession[]): McpSession | undefined {
  return sessions.filter((s) => s.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
}
