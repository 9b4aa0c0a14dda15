import {
  panicFlagKey,
  WORKSPACE_PANIC_BROADCAST,
  WorkspacePanicBroadcastSchema,
} from '../../../schemas/messages/tools';
import type { ActorSystemApi } from '../../../src/kernel';
import type { CachePort } from '../../../src/store/cache';

/** Workspaces whose flag is remembered at most (the memo is cleared past it). */
const MAX_MEMO = 10_000;

/**
 * Whether a workspace is in panic lockdown: the cache flag `panic:workspace:<id>` (set by the
 * panic route). Checked on every tool call, so it is memoised per process for `memoMs` (default
 * 1 s): at most one cache read per workspace per second per node. A `workspace.panic` broadcast
 * (sent by whoever sets or clears the flag) drops the memo at once on every node.
 */
export class PanicGate {
  private readonly memo = new Map<string, { locked: boolean; until: number }>();
  private readonly off: () => void;

  constructor(
    private readonly cache: CachePort,
    system: Pick<ActorSystemApi, 'onBroadcast'>,
    private readonly memoMs = 1000,
  ) {
    this.off = system.onBroadcast(WORKSPACE_PANIC_BROADCAST, (body) => {
      const parsed = WorkspacePanicBroadcastSchema.safeParse(body);
      if (parsed.success) this.memo.delete(parsed.data.workspaceId);
    });
  }

  /** True when the workspace is locked down. Cache failures reject (UNAVAILABLE): fail closed. */
  async isLocked(workspaceId: string): Promise<boolean> {
    const now = Date.now();
    const known = this.memo.get(workspaceId);
    if (known && known.until > now) return known.locked;
    const locked = (await this.cache.get(panicFlagKey(workspaceId))) !== null;
    if (this.memo.size >= MAX_MEMO) this.memo.clear();
    this.memo.set(workspaceId, { locked, until: now + this.memoMs });
    return locked;
  }

  close(): void {
    this.off();
  }
}
