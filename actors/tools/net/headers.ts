import { NET_HTTP_LIMITS } from '../../../schemas/tools/net-http';

/**
 * Request headers sent upstream and response headers reported back. Request headers were already
 * checked for syntax and size by the input schema; here they are normalised and filtered.
 */

/**
 * Headers the caller may not set. Hop-by-hop headers belong to one connection (RFC 9110 7.6.1);
 * `host` must match the vetted URL; the length and the content coding of bodies are the service's.
 */
export const DROPPED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'http2-settings',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
]);

/** Headers that describe a request body; dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

/** Names that look like credentials; dropped when a redirect leaves the origin. */
const CREDENTIAL_HEADER = /^(authorization|cookie)$|auth|token|secret|api-?key|password|session/;

/** Lower-cased names; duplicates differing only by case are joined with ", "; dropped ones removed. */
export function sanitizeRequestHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers ?? {})) {
    const name = rawName.toLowerCase();
    if (DROPPED_REQUEST_HEADERS.has(name)) continue;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/**
 * Headers for the next hop of a redirect: credentials are not forwarded to another origin, and
 * body headers go when the body does.
 */
export function headersForRedirect(
  headers: Record<string, string>,
  options: { crossOrigin: boolean; bodyDropped: boolean },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (options.crossOrigin && CREDENTIAL_HEADER.test(name)) continue;
    if (options.bodyDropped && BODY_HEADERS.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Response headers as undici reports them. */
export type RawResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * Response headers as reported to the caller: lower-case names, repeated values joined with ", "
 * (Set-Cookie with "\n", since cookie dates hold commas), values and totals bounded.
 */
export function boundResponseHeaders(
  raw: RawResponseHeaders,
  omit: readonly string[] = [],
): { headers: Record<string, string>; truncated: boolean } {
  const headers: Record<string, string> = {};
  let truncated = false;
  let total = 0;
  let count = 0;
  for (const [rawName, rawValue] of Object.entries(raw)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    if (omit.includes(name)) continue;
    let value = Array.isArray(rawValue) ? rawValue.join(name === 'set-cookie' ? '\n' : ', ') : rawValue;
    if (value.length > NET_HTTP_LIMITS.maxResponseHeaderValueBytes) {
      value = value.slice(0, NET_HTTP_LIMITS.maxResponseHeaderValueBytes);
      truncated = true;
    }
    if (
      count >= NET_HTTP_LIMITS.maxResponseHeaders ||
      total + name.length + value.length > NET_HTTP_LIMITS.maxResponseHeaderBytes
    ) {
      truncated = true;
      continue;
    }
    headers[name] = value;
    total += name.length + value.length;
    count += 1;
  }
  return { headers, truncated };
}
