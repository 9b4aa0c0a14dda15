import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { errors } from '../../../schemas/errors';
import { originOf } from '../../config/proxy-and-origins';

/** What the guard reads from the configuration. */
export interface BrowserGuardConfig {
  /** Where the front door listens: a loopback address turns on the `Host` check. */
  readonly HOST: string;
  readonly PUBLIC_BASE_URL: string;
  readonly ALLOWED_ORIGINS: readonly string[];
}

/** Whether an address or host name is a loopback one (127.0.0.0/8, ::1, localhost, *.localhost). */
export function isLoopbackName(name: string): boolean {
  const host = name.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 4) return host.startsWith('127.');
  if (family === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || host.startsWith('::ffff:127.');
  return false;
}

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lower case. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close === -1 ? value : value.slice(0, close + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * The DNS-rebinding guard of `/mcp` (the MCP transport requires servers to check `Origin`). A page
 * on `http://evil.example` whose name the attacker re-points at this machine makes the browser
 * send `Origin: http://evil.example` and `Host: evil.example`: the ordinary same-origin test (Origin
 * against Host) would pass it. So:
 *
 * - a request with an `Origin` must come from PUBLIC_BASE_URL's origin or one of ALLOWED_ORIGINS
 *   (`Origin: null` never does), else 403;
 * - when the service listens on a loopback address, the `Host` must also be a loopback name (or
 *   PUBLIC_BASE_URL's host), else 403: a rebound name reaches a loopback-bound server only through
 *   the victim's own browser.
 *
 * Requests without `Origin` are not from a browser page (agents, SDKs, curl) and pass the first
 * rule. Cheap on the hot path: two header reads and, usually, one set lookup.
 */
export function browserOriginGuard(config: BrowserGuardConfig): RequestHandler {
  const own = originOf(config.PUBLIC_BASE_URL);
  const allowed = new Set([...(own ? [own] : []), ...config.ALLOWED_ORIGINS]);
  const publicHost = own ? new URL(own).hostname.toLowerCase() : undefined;
  const checkHost = isLoopbackName(config.HOST);
  const hostAllowed = (header: string | undefined): boolean => {
    if (header === undefined || header === '') return true;
    const name = hostName(header);
    return name === publicHost || isLoopbackName(name);
  };
  return (req, _res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== '' && !allowed.has(origin)) {
      const normalised = origin === 'null' ? undefined : originOf(origin);
      if (normalised === undefined || !allowed.has(normalised)) {
        next(
          errors.forbidden(
            'Origin not allowed: /mcp answers pages of PUBLIC_BASE_URL and of ALLOWED_ORIGINS only',
            { origin: origin.slice(0, 200) },
          ),
        );
        return;
      }
    }
    if (checkHost && !hostAllowed(req.headers.host)) {
      next(
        errors.forbidden(
          'Host not allowed: this server listens on a loopback address and answers loopback names only',
        ),
      );
      return;
    }
    next();
  };
}
