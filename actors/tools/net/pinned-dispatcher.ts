import type { Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { VettedTarget } from './target-guard';

/**
 * A dispatcher for one hop that can only connect to the vetted addresses of that hop's host. The
 * connector never resolves a name: it replaces the host name by a vetted address before the socket
 * is opened, so DNS rebinding between the check and the connection is impossible. The URL (and
 * so the Host header) keeps the name, and TLS sends the name as SNI and verifies the certificate
 * against it.
 */

/** The connector the pinned one delegates to (undici's by default); tests inject one to observe. */
export type BaseConnector = buildConnector.connector;

export interface PinnedAgentOptions {
  /** Limit of one connection attempt, in milliseconds. */
  connectTimeoutMs: number;
  baseConnector?: BaseConnector;
}

/** Error of a connection attempt to a host other than the vetted one (a defect, never expected). */
function unexpectedHost(hostname: string): Error {
  return Object.assign(new Error(`pinned dispatcher refused a connection to unvetted host ${hostname}`), {
    code: 'ERR_UNVETTED_HOST',
  });
}

/**
 * An undici Agent for `target`. Addresses are tried in order (the next one after a failure to
 * connect), each with its own connect timeout. Close it (`destroy()`) when the hop is done.
 */
export function createPinnedAgent(target: VettedTarget, options: PinnedAgentOptions): Agent {
  const base = options.baseConnector ?? buildConnector({ timeout: options.connectTimeoutMs });
  const expected = target.host;

  const connect: BaseConnector = (connectOptions, callback) => {
    // undici passes IPv6 hosts without brackets; names as in the URL (lower case, ASCII).
    const asked = connectOptions.hostname.toLowerCase().replace(/\.$/, '');
    if (asked !== expected && asked !== `[${expected}]`) {
      callback(unexpectedHost(asked), null);
      return;
    }
    const attempt = (index: number, lastError?: Error): void => {
      const next = target.addresses[index];
      if (next === undefined) {
        callback(lastError ?? unexpectedHost(asked), null);
        return;
      }
      base(
        {
          ...connectOptions,
          hostname: next.address,
          // SNI and certificate check against the name; never an address (TLS forbids IP SNI).
          servername: target.isName && connectOptions.protocol === 'https:' ? target.host : undefined,
        },
        (err: Error | null, socket: Socket | null) => {
          if (err || !socket) {
            attempt(index + 1, err ?? lastError);
            return;
          }
          callback(null, socket);
        },
      );
    };
    attempt(0);
  };

  return new Agent({
    connect,
    // One hop, one request: no pooling across hops or calls.
    connections: 1,
    pipelining: 1,
    keepAliveTimeout: 1,
    keepAliveMaxTimeout: 1,
  });
}
