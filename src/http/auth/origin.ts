import type { Request } from 'express';

/** Methods that change state: the origin rule applies to them only. */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isMutating(method: string): boolean {
  return MUTATING.has(method.toUpperCase());
}

/** The origin (`scheme://host[:port]`) of a URL, or undefined when it does not parse. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request comes from one of our own pages, judged on `Origin` (or `Referer` when there is
 * no `Origin`): allowed when it is the origin of PUBLIC_BASE_URL, or names the same host (and
 * port) as the request's own `Host` header (scheme not compared: behind a TLS-terminating proxy the
 * app sees http). A request with neither header is not from a browser page and passes; `Origin:
 * null` (sandboxed frames, some redirects) does not.
 */
export function isSameOrigin(req: Request, publicBaseUrl: string): boolean {
  const originHeader = req.headers.origin;
  let source: string | undefined;
  if (typeof originHeader === 'string' && originHeader !== '') {
    if (originHeader === 'null') return false;
    source = originOf(originHeader);
    if (!source) return false;
  } else {
    const referer = req.headers.referer;
    if (typeof referer !== 'string' || referer === '') return true;
    source = originOf(referer);
    if (!source) return false;
  }
  if (source === originOf(publicBaseUrl)) return true;
  const host = req.headers.host;
  return typeof host === 'string' && host !== '' && new URL(source).host === host.toLowerCase();
}
