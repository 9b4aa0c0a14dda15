import { promises as dns } from 'node:dns';
import { domainToASCII } from 'node:url';
import type { z } from 'zod';
import { errors, isAppError } from '../../../schemas/errors';
import {
  NET_HTTP_INPUT_SCHEMAS,
  NET_HTTP_LIMITS,
  NetDnsResolveInputSchema,
  type NetDnsResolveResult,
  type NetHttpMethod,
  type NetHttpResult,
} from '../../../schemas/tools/net-http';
import type { Config } from '../../../src/config/load-config';
import type { Logger } from '../../../src/logging/logger';
import { classifyAddress, classifyHostname, parseHost } from './address-classification';
import { isHostAllowed } from './allowlist';
import { encodeBody } from './body-reader';
import { boundResponseHeaders, sanitizeRequestHeaders } from './headers';
import { buildRequest, redirectRequest, sendHop } from './http-exchange';
import { failed, refused, stoppedError, transportError, type StopCause } from './net-errors';
import type { BaseConnector } from './pinned-dispatcher';
import { resolveName, vetTarget, type Lookup } from './target-guard';

/** Options of `createHttpEgress`. */
export interface HttpEgressOptions {
  /** Allow loopback targets (127.0.0.0/8, ::1, localhost) and plain http to them. Tests only: `config.ALLOW_LOOPBACK_HTTP`. Default false. */
  allowLoopback?: boolean;
  /** Let callers opt in to plain http with `allowHttp: true`. False: https only (loopback aside). Default true. */
  permitPlainHttp?: boolean;
  /** Name resolver. Default: the system resolver (`dns.lookup`, all addresses). */
  lookup?: Lookup;
  /** Timeout of an HTTP call without `timeout`, in ms. Default and maximum 30000. */
  defaultTimeoutMs?: number;
  /** Response body cap (and largest `maxBytes`), in bytes. Default and maximum 10 MB. */
  maxResponseBytes?: number;
  /** Limit of one connection attempt, in ms. Default 10000. */
  connectTimeoutMs?: number;
  logger: Logger;
  /** The connector the pinned dispatcher delegates to, after pinning. For tests; default undici's. */
  baseConnector?: BaseConnector;
}

/** Per-call context: the calling agent's allowlist and the call's cancellation. */
export interface EgressCallContext {
  /** The agent's `allowedDomains`; empty = every host (the SSRF guard always applies). */
  allowedDomains: readonly string[];
  /** Aborting it ends the call promptly (UNAVAILABLE, reason 'cancelled'). */
  signal?: AbortSignal;
  /** Told the response bytes received so far (and the announced length), for progress. */
  onBytes?: (bytes: number, total: number | undefined) => void;
}

/** The HTTP egress service behind the `net_*` tools. See docs/tool-net.md. */
export interface HttpEgress {
  /**
   * Validates `input` with the method's schema and performs the request, following redirects with
   * the policy checked on every hop. Upstream error statuses are results. Rejects with AppError:
   * VALIDATION_ERROR, PERMISSION_DENIED (policy), UNAVAILABLE (DNS, connection, cancelled),
   * DEADLINE_EXCEEDED.
   */
  request(method: NetHttpMethod, input: unknown, context: EgressCallContext): Promise<NetHttpResult>;
  /** `net_dns_resolve`: the public addresses of a name, under the same allowlist and name rules. */
  resolve(input: unknown, context: EgressCallContext): Promise<NetDnsResolveResult>;
  /** Cancels every call in flight (the panic button). Returns how many were cancelled. */
  abortAll(reason?: string): number;
  /** Calls in flight. */
  stats(): { inFlight: number };
}

const systemLookup: Lookup = async (hostname, { family }) => {
  const answers = await dns.lookup(hostname, { all: true, family });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function parseInput<S extends z.ZodType>(schema: S, input: unknown, tool: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    throw errors.validation(`Invalid ${tool} input: ${summary}`, { issues });
  }
  return parsed.data;
}

function reasonOf(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.message) return reason.message;
  return 'aborted';
}

/** Creates the egress service. One instance per process is enough; calls share nothing. */
export function createHttpEgress(options: HttpEgressOptions): HttpEgress {
  const allowLoopback = options.allowLoopback ?? false;
  const permitPlainHttp = options.permitPlainHttp ?? true;
  const lookup = options.lookup ?? systemLookup;
  const defaultTimeoutMs = Math.min(
    options.defaultTimeoutMs ?? NET_HTTP_LIMITS.defaultTimeoutMs,
    NET_HTTP_LIMITS.maxTimeoutMs,
  );
  const maxResponseBytes = Math.min(
    options.maxResponseBytes ?? NET_HTTP_LIMITS.maxResponseBytes,
    NET_HTTP_LIMITS.maxResponseBytes,
  );
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const log = options.logger.child({ component: 'net-egress' });
  const active = new Set<(cause: StopCause) => void>();
  if (allowLoopback) log.warn('net egress: loopback targets allowed (ALLOW_LOOPBACK_HTTP); tests only');

  /** The call's own signal: fires on its deadline, on the caller's signal, or on abortAll. */
  function startCall(signal: AbortSignal | undefined, timeoutMs: number) {
    const controller = new AbortController();
    let cause: StopCause | undefined;
    const stop = (why: StopCause) => {
      if (cause) return;
      cause = why;
      controller.abort(Object.assign(new Error(`request ${why.kind}`), { name: 'AbortError' }));
    };
    const timer = setTimeout(() => stop({ kind: 'timeout', timeoutMs }), timeoutMs);
    const onAbort = () => stop({ kind: 'cancelled', why: reasonOf(signal?.reason) });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    active.add(stop);
    return {
      signal: controller.signal,
      cause: () => cause,
      done: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        active.delete(stop);
      },
    };
  }

  async function request(
    method: NetHttpMethod,
    raw: unknown,
    context: EgressCallContext,
  ): Promise<NetHttpResult> {
    const schema = NET_HTTP_INPUT_SCHEMAS[method];
    if (!schema) throw errors.validation(`Unsupported method ${String(method)}`);
    const input = parseInput(schema, raw, `net_http_${method.toLowerCase()}`);
    const timeoutMs = input.timeout ?? defaultTimeoutMs;
    const maxBytes = Math.min(input.maxBytes ?? maxResponseBytes, maxResponseBytes);
    const started = Date.now();
    const call = startCall(context.signal, timeoutMs);
    let url = new URL(input.url);
    let hop = 0;
    let host = url.hostname;
    try {
      let outgoing = buildRequest(method, input, sanitizeRequestHeaders(input.headers));
      for (;;) {
        const target = await vetTarget(url, {
          allowedDomains: context.allowedDomains,
          allowLoopback,
          allowHttp: permitPlainHttp && input.allowHttp === true,
          lookup,
          signal: call.signal,
          hop,
        });
        host = target.host;
        const response = await sendHop(target, outgoing, {
          signal: call.signal,
          remainingMs: Math.max(1, timeoutMs - (Date.now() - started)),
          connectTimeoutMs,
          maxBytes,
          followRedirects: input.followRedirects !== false,
          baseConnector: options.baseConnector,
          ...(context.onBytes ? { onBytes: context.onBytes } : {}),
        });
        if (response.read === undefined) {
          let next: URL;
          try {
            next = new URL(response.location ?? '', target.url);
          } catch {
            throw failed(
              `Redirect from ${host} has an invalid Location`,
              'bad_redirect',
              { hop, host },
              false,
            );
          }
          if (hop >= NET_HTTP_LIMITS.maxRedirects) {
            throw failed(
              `More than ${NET_HTTP_LIMITS.maxRedirects} redirects`,
              'too_many_redirects',
              { hop, host },
              false,
            );
          }
          outgoing = redirectRequest(outgoing, response.status, next.origin !== target.url.origin);
          url = next;
          hop += 1;
          continue;
        }
        const { read } = response;
        const omit = read.decoded ? ['content-encoding', 'content-length'] : [];
        const headers = boundResponseHeaders(response.headers, omit);
        const contentType =
          typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : undefined;
        const result: NetHttpResult = {
          status: response.status,
          ...(response.statusText ? { statusText: response.statusText } : {}),
          headers: headers.headers,
          ...(headers.truncated ? { headersTruncated: true } : {}),
          ...encodeBody(read.buffer, contentType, read.truncated),
          bytes: read.buffer.length,
          truncated: read.truncated,
          url: target.url.href,
          redirects: hop,
        };
        log.debug(
          {
            method,
            host,
            status: result.status,
            redirects: hop,
            bytes: result.bytes,
            ms: Date.now() - started,
          },
          'net egress: request done',
        );
        return result;
      }
    } catch (err) {
      const cause = call.cause();
      const error = cause ? stoppedError(cause, { hop, host }) : transportError(err, { hop, host });
      if (error.code === 'PERMISSION_DENIED')
        log.info({ method, details: error.details }, 'net egress: refused');
      else log.debug({ method, code: error.code, details: error.details }, 'net egress: failed');
      throw error;
    } finally {
      call.done();
    }
  }

  async function resolve(raw: unknown, context: EgressCallContext): Promise<NetDnsResolveResult> {
    const input = parseInput(NetDnsResolveInputSchema, raw, 'net_dns_resolve');
    const parsed = parseHost(input.hostname);
    if (parsed.kind !== 'name')
      throw errors.validation(
        'Invalid net_dns_resolve input: hostname must be a domain name, not an IP address',
      );
    const name = domainToASCII(parsed.name);
    if (name === '')
      throw errors.validation('Invalid net_dns_resolve input: hostname is not a valid domain name');
    if (!isHostAllowed(name, context.allowedDomains))
      throw refused(name, 'not in the agent’s allowed domains', 'allowlist', 0);
    const special = classifyHostname(name);
    if (special && !(special.category === 'loopback' && allowLoopback))
      throw refused(name, special.label, 'ssrf', 0);

    const call = startCall(context.signal, input.timeout ?? NET_HTTP_LIMITS.defaultDnsTimeoutMs);
    try {
      const family = input.type === 'A' ? 4 : input.type === 'AAAA' ? 6 : 0;
      const answers = await resolveName(name, family, { lookup, signal: call.signal, hop: 0 });
      const shown = answers.filter(({ address }) => {
        const category = classifyAddress(address).category;
        return category === 'public' || (category === 'loopback' && allowLoopback);
      });
      return {
        hostname: name,
        addresses: shown.slice(0, NET_HTTP_LIMITS.maxDnsAddresses),
        withheld: answers.length - shown.length,
      };
    } catch (err) {
      const cause = call.cause();
      if (cause) throw stoppedError(cause, { hop: 0, host: name });
      throw isAppError(err) ? err : transportError(err, { hop: 0, host: name });
    } finally {
      call.done();
    }
  }

  function abortAll(reason = 'aborted'): number {
    const stops = [...active];
    for (const stop of stops) stop({ kind: 'cancelled', why: reason });
    if (stops.length > 0) log.info({ cancelled: stops.length, reason }, 'net egress: calls cancelled');
    return stops.length;
  }

  return { request, resolve, abortAll, stats: () => ({ inFlight: active.size }) };
}

/** The egress service as a process runs it: loopback only when `ALLOW_LOOPBACK_HTTP` says so (tests). */
export function createHttpEgressFromConfig(
  config: Pick<Config, 'ALLOW_LOOPBACK_HTTP'>,
  logger: Logger,
): HttpEgress {
  return createHttpEgress({ allowLoopback: config.ALLOW_LOOPBACK_HTTP, logger });
}
