import type { Principal } from '../../../schemas/auth';
import type { ActorSystemApi } from '../../../src/kernel';
import { callerAgentId } from './default-agent';

/**
 * MCP `notifications/cancelled` for a stateless, scaled-out `/mcp` (docs/tool-router.md, "MCP
 * cancellation"): the notification arrives in a request of its own, maybe at another node than
 * the `tools/call` it names. Each node keeps its calls in flight by caller and request id; a
 * cancellation aborts the matching call here and is broadcast so that the node running it does
 * the same. The aborted signal reaches the tool through the kernel's cancel (tool-invoke.ts).
 */

export const MCP_CANCELLED_BROADCAST = 'tools.mcpCancelled';

interface CancelledBody {
  caller: string;
  requestId: string;
}

/** Whose request ids these are: one agent through one credential (ids are per client). */
export function mcpCaller(principal: Principal): string {
  return `${callerAgentId(principal)}|${principal.tokenId ?? principal.via}`;
}

const requestKey = (requestId: string | number) => JSON.stringify(requestId);

export class McpCallsInFlight {
  private readonly calls = new Map<string, Set<AbortController>>();

  constructor(private readonly system: Pick<ActorSystemApi, 'broadcast' | 'onBroadcast'>) {
    system.onBroadcast(MCP_CANCELLED_BROADCAST, (body) => {
      const b = body as Partial<CancelledBody> | undefined;
      if (typeof b?.caller === 'string' && typeof b.requestId === 'string')
        this.abortLocal(b.caller, b.requestId);
    });
  }

  /** Registers one `tools/call`; its signal also fires with `parent` (the client went away). */
  begin(
    caller: string,
    requestId: string | number,
    parent: AbortSignal,
  ): { signal: AbortSignal; end(): void } {
    const key = `${caller}\n${requestKey(requestId)}`;
    const controller = new AbortController();
    let set = this.calls.get(key);
    if (!set) this.calls.set(key, (set = new Set()));
    set.add(controller);
    const signal = AbortSignal.any([parent, controller.signal]);
    return {
      signal,
      end: () => {
        set.delete(controller);
        if (set.size === 0 && this.calls.get(key) === set) this.calls.delete(key);
      },
    };
  }

  /** The client cancelled request `requestId`: here, and on every other node. */
  async cancel(caller: string, requestId: string | number): Promise<void> {
    const id = requestKey(requestId);
    this.abortLocal(caller, id);
    await this.system.broadcast(MCP_CANCELLED_BROADCAST, { caller, requestId: id } satisfies CancelledBody);
  }

  private abortLocal(caller: string, id: string): void {
    for (const controller of this.calls.get(`${caller}\n${id}`) ?? []) controller.abort();
  }
}
