import { STATUS_CODES } from 'node:http';
import { request } from 'undici';
import type { NetHttpInput, NetHttpMethod } from '../../../schemas/tools/net-http';
import { readBody, type ReadBody } from './body-reader';
import { headersForRedirect, type RawResponseHeaders } from './headers';
import { createPinnedAgent, type BaseConnector } from './pinned-dispatcher';
import type { VettedTarget } from './target-guard';

/** One request/response on a vetted target, and the rules that carry a request across a redirect. */

/** What is sent on a hop. */
export interface OutgoingRequest {
  method: NetHttpMethod;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** What came back on a hop. A redirect's body is not read. */
export interface HopResponse {
  status: number;
  statusText: string | undefined;
  headers: RawResponseHeaders;
  location: string | undefined;
  read: ReadBody | undefined;
}

export interface HopOptions {
  signal: AbortSignal;
  /** Milliseconds left of the call: limits of the connection, the headers and each body read. */
  remainingMs: number;
  connectTimeoutMs: number;
  maxBytes: number;
  followRedirects: boolean;
  baseConnector?: BaseConnector;
  /** Told the bytes of the body read so far, and its announced length when known. */
  onBytes?: (bytes: number, total: number | undefined) => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The first request of a call: headers (already sanitized) plus the body and its content type. */
export function buildRequest(
  method: NetHttpMethod,
  input: NetHttpInput,
  headers: Record<string, string>,
): OutgoingRequest {
  const out = { ...headers };
  if (out['user-agent'] === undefined) out['user-agent'] = 'agent-runtime-service';
  // The caller's Accept-Encoding was dropped: these are the codings readBody can decode under its cap.
  out['accept-encoding'] = 'gzip, deflate, br';
  let body: Buffer | undefined;
  if (input.body !== undefined && (method === 'POST' || method === 'PUT')) {
    if (typeof input.body === 'string') {
      const binary = input.bodyEncoding === 'base64';
      body = Buffer.from(binary ? input.body.replace(/\s+/g, '') : input.body, binary ? 'base64' : 'utf8');
      out['content-type'] ??= binary ? 'application/octet-stream' : 'text/plain; charset=utf-8';
    } else {
      body = Buffer.from(JSON.stringify(input.body), 'utf8');
      out['content-type'] ??= 'application/json';
    }
  }
  return { method, headers: out, body };
}

/** The request for the next hop (RFC 9110 15.4; the same rules as fetch). */
export function redirectRequest(
  previous: OutgoingRequest,
  status: number,
  crossOrigin: boolean,
): OutgoingRequest {
  const toGet =
    (status === 303 && previous.method !== 'GET') ||
    ((status === 301 || status === 302) && previous.method === 'POST');
  return {
    method: toGet ? 'GET' : previous.method,
    headers: headersForRedirect(previous.headers, {
      crossOrigin,
      bodyDropped: toGet && previous.body !== undefined,
    }),
    body: toGet ? undefined : previous.body,
  };
}

/**
 * Sends `outgoing` to `target` through a dispatcher pinned to the target's vetted addresses. Reads
 * the body (up to the cap) unless the answer is a redirect that will be followed. The dispatcher
 * and its connection are closed before this returns.
 */
export async function sendHop(
  target: VettedTarget,
  outgoing: OutgoingRequest,
  options: HopOptions,
): Promise<HopResponse> {
  const agent = createPinnedAgent(target, {
    connectTimeoutMs: Math.min(options.connectTimeoutMs, options.remainingMs),
    baseConnector: options.baseConnector,
  });
  try {
    const { url } = target;
    const response = await request(`${url.origin}${url.pathname}${url.search}`, {
      dispatcher: agent,
      method: outgoing.method,
      headers: outgoing.headers,
      body: outgoing.body,
      signal: options.signal,
      headersTimeout: options.remainingMs,
      bodyTimeout: options.remainingMs,
    });
    const headers = response.headers as RawResponseHeaders;
    const location = firstValue(headers['location']);
    const status = response.statusCode;
    let read: ReadBody | undefined;
    if (options.followRedirects && REDIRECTS.has(status) && location !== undefined) {
      // Not read: undici reports a destroyed unread body as an 'error' event, which nobody awaits.
      response.body.on('error', () => undefined);
      response.body.destroy();
    } else {
      const encoding = firstValue(headers['content-encoding']);
      const length = Number(firstValue(headers['content-length']));
      // The announced length counts encoded bytes: a total only for a body read as it came.
      const total = encoding === undefined && Number.isFinite(length) && length > 0 ? length : undefined;
      const onBytes = options.onBytes;
      read = await readBody(
        response.body,
        options.maxBytes,
        encoding,
        onBytes ? (n) => onBytes(n, total) : undefined,
      );
    }
    return { status, statusText: STATUS_CODES[status], headers, location, read };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
