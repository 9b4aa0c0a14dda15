import { z } from 'zod';

/**
 * Inputs and results of the network tools `net_http_get`, `net_http_post`, `net_http_put`,
 * `net_http_delete` and `net_dns_resolve`. The tool router reuses the input schemas as the tools'
 * `inputSchema` (every one is a `z.object`, refinements only, no transforms); the egress service
 * (`actors/tools/net`) validates every call with them. Policy (https, allowlist, SSRF guard) is
 * applied by the service, not here: see docs/tool-net.md.
 */

const MB = 1024 * 1024;

/** Limits of a call. The service may be configured lower, never higher. */
export const NET_HTTP_LIMITS = Object.freeze({
  /** `timeout` when the caller gives none, and its maximum, in milliseconds (whole call, every hop). */
  defaultTimeoutMs: 30_000,
  maxTimeoutMs: 30_000,
  /** Response body cap (decoded bytes) when the caller gives no `maxBytes`, and the largest `maxBytes`. */
  maxResponseBytes: 10 * MB,
  /** Request body cap, in bytes after encoding (UTF-8 text, decoded base64, or JSON text). */
  maxRequestBytes: 10 * MB,
  /** Redirects followed before the call fails. */
  maxRedirects: 5,
  maxUrlLength: 8192,
  /** Request headers: count, name length, value size (UTF-8 bytes) and total size. */
  maxRequestHeaders: 50,
  maxHeaderNameLength: 256,
  maxHeaderValueBytes: 8192,
  maxRequestHeaderBytes: 32 * 1024,
  /** Response headers reported: count, value size (longer values are cut) and total size. */
  maxResponseHeaders: 100,
  maxResponseHeaderValueBytes: 8192,
  maxResponseHeaderBytes: 64 * 1024,
  /** `net_dns_resolve`: timeout default and maximum, addresses reported. */
  defaultDnsTimeoutMs: 5_000,
  maxDnsTimeoutMs: 30_000,
  maxDnsAddresses: 64,
});

/** Methods of the HTTP tools. */
export const NET_HTTP_METHODS = Object.freeze(['GET', 'POST', 'PUT', 'DELETE'] as const);
export type NetHttpMethod = (typeof NET_HTTP_METHODS)[number];

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** RFC 9110 `token`: the characters a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, spaces, tabs and obs-text; no CR, LF or NUL (header injection). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const UrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(NET_HTTP_LIMITS.maxUrlLength)
  .superRefine((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL (https://host/path)' });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      ctx.addIssue({
        code: 'custom',
        message: 'only https:// (and, where allowed, http://) URLs are supported',
      });
    } else if (url.username !== '' || url.password !== '') {
      ctx.addIssue({
        code: 'custom',
        message: 'credentials in the URL are not allowed; send an Authorization header',
      });
    } else if (url.hostname === '') {
      ctx.addIssue({ code: 'custom', message: 'must name a host' });
    }
  })
  .describe('Absolute https:// URL. Plain http:// needs `allowHttp: true`. IP-address hosts are refused.');

const HeadersSchema = z
  .record(
    z.string().min(1).max(NET_HTTP_LIMITS.maxHeaderNameLength).regex(HEADER_NAME, 'invalid header name'),
    z
      .string()
      .regex(HEADER_VALUE, 'header values may not contain CR, LF, NUL or other control characters')
      .refine((v) => utf8Bytes(v) <= NET_HTTP_LIMITS.maxHeaderValueBytes, {
        message: `header values must be at most ${NET_HTTP_LIMITS.maxHeaderValueBytes} bytes`,
      }),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > NET_HTTP_LIMITS.maxRequestHeaders) {
      ctx.addIssue({ code: 'custom', message: `at most ${NET_HTTP_LIMITS.maxRequestHeaders} headers` });
    }
    const total = names.reduce((sum, n) => sum + n.length + utf8Bytes(headers[n] ?? ''), 0);
    if (total > NET_HTTP_LIMITS.maxRequestHeaderBytes) {
      ctx.addIssue({
        code: 'custom',
        message: `headers must total at most ${NET_HTTP_LIMITS.maxRequestHeaderBytes} bytes`,
      });
    }
  })
  .describe(
    'Request headers, name → value. Hop-by-hop headers (Connection, Transfer-Encoding, TE, Upgrade, ...), ' +
      'Host, Content-Length, Expect and Accept-Encoding are dropped.',
  );

const common = {
  url: UrlSchema,
  headers: HeadersSchema.optional(),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(NET_HTTP_LIMITS.maxTimeoutMs)
    .optional()
    .describe(
      `Limit of the whole call (DNS, every redirect, body) in milliseconds (default ${NET_HTTP_LIMITS.defaultTimeoutMs}).`,
    ),
  maxBytes: z
    .number()
    .int()
    .min(1)
    .max(NET_HTTP_LIMITS.maxResponseBytes)
    .optional()
    .describe(
      `Response body cap in bytes (default ${NET_HTTP_LIMITS.maxResponseBytes}); past it the body is cut and \`truncated\` is true.`,
    ),
  allowHttp: z
    .boolean()
    .optional()
    .describe('Allow a plain http:// URL or redirect (default false: https only).'),
  followRedirects: z
    .boolean()
    .optional()
    .describe(
      `Follow redirects, at most ${NET_HTTP_LIMITS.maxRedirects} (default true); false returns the 3xx response.`,
    ),
};

/** Size of a request body once encoded, in bytes. */
export function requestBodyBytes(body: unknown, encoding: 'utf8' | 'base64' | undefined): number {
  if (typeof body === 'string') {
    return encoding === 'base64' ? Buffer.byteLength(body, 'base64') : utf8Bytes(body);
  }
  return utf8Bytes(JSON.stringify(body) ?? '');
}

const withBody = {
  ...common,
  body: z
    .json()
    .optional()
    .describe(
      'Request body: a string is sent as is (text/plain unless Content-Type is given); any other JSON value is ' +
        'sent as JSON with Content-Type application/json.',
    ),
  bodyEncoding: z
    .enum(['utf8', 'base64'])
    .optional()
    .describe('How a string `body` is encoded: utf8 (default) or base64 for binary data.'),
};

type BodyInput = { body?: unknown; bodyEncoding?: 'utf8' | 'base64' };

function checkBody(input: BodyInput, ctx: z.RefinementCtx): void {
  if (input.body === undefined) {
    if (input.bodyEncoding !== undefined)
      ctx.addIssue({ code: 'custom', path: ['bodyEncoding'], message: 'needs a body' });
    return;
  }
  if (input.bodyEncoding === 'base64') {
    if (typeof input.body !== 'string') {
      ctx.addIssue({
        code: 'custom',
        path: ['bodyEncoding'],
        message: 'base64 applies to a string body only',
      });
      return;
    }
    if (!BASE64.test(input.body.replace(/\s+/g, ''))) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'is not valid base64' });
      return;
    }
  }
  if (requestBodyBytes(input.body, input.bodyEncoding) > NET_HTTP_LIMITS.maxRequestBytes) {
    ctx.addIssue({
      code: 'custom',
      path: ['body'],
      message: `must be at most ${NET_HTTP_LIMITS.maxRequestBytes} bytes`,
    });
  }
}

/** `net_http_get`: fetches a URL and returns its body. */
export const NetHttpGetInputSchema = z.object(common);
/** `net_http_delete`: sends a DELETE (no body). */
export const NetHttpDeleteInputSchema = z.object(common);
/** `net_http_post`: sends a body (string or JSON). */
export const NetHttpPostInputSchema = z.object(withBody).superRefine(checkBody);
/** `net_http_put`: sends a body (string or JSON). */
export const NetHttpPutInputSchema = z.object(withBody).superRefine(checkBody);

/** Input schema of each HTTP method's tool. */
export const NET_HTTP_INPUT_SCHEMAS = Object.freeze({
  GET: NetHttpGetInputSchema,
  POST: NetHttpPostInputSchema,
  PUT: NetHttpPutInputSchema,
  DELETE: NetHttpDeleteInputSchema,
});

/** A validated call of any HTTP tool (GET and DELETE never carry a body). */
export type NetHttpInput = z.output<typeof NetHttpPostInputSchema>;
/** What a caller sends to an HTTP tool. */
export type NetHttpRequest = z.input<typeof NetHttpPostInputSchema>;

/** Result of every HTTP tool. Upstream 4xx/5xx answers are results, not errors. */
export const NetHttpResultSchema = z.object({
  status: z.number().int(),
  statusText: z.string().optional(),
  /** Lower-case names; repeated headers joined with ", " (Set-Cookie with "\n"); bounded. */
  headers: z.record(z.string(), z.string()),
  /** True when some response headers were left out or cut (limits above). */
  headersTruncated: z.boolean().optional(),
  body: z.string(),
  /** utf8 for text that decodes cleanly, base64 otherwise. */
  bodyEncoding: z.enum(['utf8', 'base64']),
  /** Decoded bytes of the body returned. */
  bytes: z.number().int().nonnegative(),
  /** True when the body hit the cap and the rest was not read. */
  truncated: z.boolean(),
  /** Final URL, after redirects. */
  url: z.string(),
  /** Redirects followed. */
  redirects: z.number().int().nonnegative(),
});
export type NetHttpResult = z.infer<typeof NetHttpResultSchema>;

/** `net_dns_resolve`: the addresses of a name, as the HTTP tools would see them. */
export const NetDnsResolveInputSchema = z.object({
  hostname: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[\p{L}\p{N}._-]+$/u, 'must be a host name (no scheme, port or path)')
    .describe('Domain name to resolve, e.g. api.example.com. IP addresses are refused.'),
  type: z.enum(['A', 'AAAA', 'ANY']).optional().describe('A (IPv4), AAAA (IPv6) or ANY (both, the default).'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(NET_HTTP_LIMITS.maxDnsTimeoutMs)
    .optional()
    .describe(`Limit in milliseconds (default ${NET_HTTP_LIMITS.defaultDnsTimeoutMs}).`),
});
export type NetDnsResolveRequest = z.input<typeof NetDnsResolveInputSchema>;
export type NetDnsResolveInput = z.output<typeof NetDnsResolveInputSchema>;

export const NetDnsResolveResultSchema = z.object({
  /** The name resolved, normalised (lower case, IDN in ASCII, no trailing dot). */
  hostname: z.string(),
  /** Public addresses only (the ones the HTTP tools may connect to). */
  addresses: z.array(z.object({ address: z.string(), family: z.union([z.literal(4), z.literal(6)]) })),
  /** How many addresses were withheld because they are not public (private, loopback, ...). */
  withheld: z.number().int().nonnegative(),
});
export type NetDnsResolveResult = z.infer<typeof NetDnsResolveResultSchema>;
