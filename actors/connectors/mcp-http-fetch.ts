import { promises as dns } from 'node:dns';
import type { Socket } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { errors } from '../../schemas/errors';
import { vetTarget, type Lookup, type VettedTarget } from '../tools/net/target-guard';

/**
 * The `fetch` an HTTP connector's MCP session uses. The endpoint is vetted once per session with
 * the SSRF guard of `net_http_*` (actors/tools/net/target-guard.ts: https only, public addresses
 * only, loopback and plain http to it only with ALLOW_LOOPBACK_HTTP), and every connection of the
 * session is pinned to the vetted addresses: the connector never resolves the name again, so a DNS
 * answer that changes after the check is never used. Requests to another origin are refused.
 *
 * Unlike the one-shot dispatcher of `net_http_*`, this one pools a few connections: a session keeps
 * a server-sent-event stream open while it POSTs requests.
 */

/** Options of `openPinnedFetch`. */
export interface PinnedFetchOptions {
  /** Loopback endpoints (and plain http to them) allowed: `config.ALLOW_LOOPBACK_HTTP`. */
  allowLoopback: boolean;
  /** Name resolver; default the system's (`dns.lookup`, all addresses). */
  lookup?: Lookup;
  /** Limit of one connection attempt, ms. */
  connectTimeoutMs: number;
  signal: AbortSignal;
}

/** A vetted endpoint's fetch, and the pool behind it (close it with the session). */
export interface PinnedFetch {
  readonly fetch: FetchLike;
  readonly target: VettedTarget;
  close(): Promise<void>;
}

const systemLookup: Lookup = async (hostname, { family }) => {
  const answers = await dns.lookup(hostname, { all: true, family });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function pinnedAgent(target: VettedTarget, connectTimeoutMs: number): Agent {
  const base = buildConnector({ timeout: connectTimeoutMs });
  const connect: buildConnector.connector = (options, callback) => {
    const asked = options.hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^\[(.*)\]$/, '$1');
    if (asked !== target.host) {
      callback(new Error(`connection to unvetted host ${asked} refused`), null);
      return;
    }
    const attempt = (index: number, lastError?: Error): void => {
      const next = target.addresses[index];
      if (next === undefined) {
        callback(lastError ?? new Error(`no address of ${asked} answered`), null);
        return;
      }
      base(
        {
          ...options,
          hostname: next.address,
          servername: target.isName && options.protocol === 'https:' ? target.host : undefined,
        },
        (err: Error | null, socket: Socket | null) => {
          if (err || !socket) attempt(index + 1, err ?? lastError);
          else callback(null, socket);
        },
      );
    };
    attempt(0);
  };
  return new Agent({ connect, connections: 4, keepAliveTimeout: 30_000 });
}

/**
 * Vets `endpoint` (PERMISSION_DENIED when the policy refuses it, UNAVAILABLE when the name does
 * not resolve) and returns a fetch bound to it.
 */
export async function openPinnedFetch(endpoint: URL, options: PinnedFetchOptions): Promise<PinnedFetch> {
  const target = await vetTarget(endpoint, {
    allowedDomains: [],
    allowLoopback: options.allowLoopback,
    allowHttp: false,
    lookup: options.lookup ?? systemLookup,
    signal: options.signal,
    hop: 0,
  });
  const agent = pinnedAgent(target, options.connectTimeoutMs);
  const origin = target.url.origin;
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    if (url.origin !== origin) {
      throw errors.forbidden(
        `MCP connector request to ${url.origin} refused: the connector is bound to ${origin}`,
      );
    }
    const response = await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: init?.redirect ?? 'manual',
      dispatcher: agent,
    });
    return response as unknown as Response;
  };
  return {
    fetch,
    target,
    close: () => agent.destroy().catch(() => undefined),
  };
}
