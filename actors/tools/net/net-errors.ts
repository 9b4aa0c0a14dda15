import { AppError, errors, isAppError } from '../../../schemas/errors';

/**
 * The errors of the egress service. Policy refusals are PERMISSION_DENIED with
 * `details: { reason, hop, host }`; failures to reach the target are UNAVAILABLE with
 * `details: { reason, hop, host }`; timeouts are DEADLINE_EXCEEDED. See docs/tool-net.md.
 */

/** Why a target was refused. */
export type RefusalReason = 'scheme' | 'allowlist' | 'ssrf' | 'ip_literal';

/** Why a target could not be reached. */
export type FailureReason =
  'dns' | 'connect' | 'tls' | 'socket' | 'decode' | 'bad_redirect' | 'too_many_redirects' | 'cancelled';

const where = (hop: number) => (hop > 0 ? ` (redirect ${hop})` : '');

/** "Outbound request to 10.0.0.5 refused: private address" (+ " (redirect 2)" past the first hop). */
export function refused(host: string, why: string, reason: RefusalReason, hop: number): AppError {
  return errors.forbidden(`Outbound request to ${host} refused: ${why}${where(hop)}`, { reason, hop, host });
}

export function failed(
  message: string,
  reason: FailureReason,
  context: { hop: number; host: string },
  retryable: boolean,
): AppError {
  return new AppError(
    'UNAVAILABLE',
    `${message}${where(context.hop)}`,
    { reason, ...context },
    { retryable },
  );
}

/** Why the call's own signal fired. */
export type StopCause = { kind: 'timeout'; timeoutMs: number } | { kind: 'cancelled'; why: string };

/** The error for a call stopped by its deadline or by its caller. */
export function stoppedError(cause: StopCause, context: { hop: number; host: string }): AppError {
  if (cause.kind === 'timeout') {
    return new AppError(
      'DEADLINE_EXCEEDED',
      `Outbound request to ${context.host} timed out after ${cause.timeoutMs} ms`,
      {
        reason: 'timeout',
        ...context,
      },
    );
  }
  return failed(`Outbound request to ${context.host} cancelled (${cause.why})`, 'cancelled', context, false);
}

const DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA', 'ESERVFAIL', 'EAI_FAIL']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** A failed name lookup. */
export function dnsError(err: unknown, context: { hop: number; host: string }): AppError {
  if (isAppError(err)) return err;
  const code = codeOf(err);
  // "No such name" will not change on retry; EAI_AGAIN, timeouts and unknown failures may.
  const retryable = !DNS_CODES.has(code);
  return failed(
    `Could not resolve host ${context.host}${code ? ` (${code})` : ''}`,
    'dns',
    context,
    retryable,
  );
}

/** A failure of the connection or of the exchange (undici and socket errors). */
export function transportError(err: unknown, context: { hop: number; host: string }): AppError {
  if (isAppError(err)) return err;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return new AppError(
        'DEADLINE_EXCEEDED',
        `Outbound request to ${context.host} timed out (${code})${where(context.hop)}`,
        {
          reason: 'timeout',
          ...context,
        },
      );
    case 'ECONNREFUSED':
      return failed(`Connection to ${context.host} refused`, 'connect', context, true);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
    case 'ETIMEDOUT':
      return failed(`Could not connect to ${context.host} (${code})`, 'connect', context, true);
    default:
      break;
  }
  // zlib (Z_DATA_ERROR ...) and brotli (ERR__ERROR_FORMAT_...) failures: the body is not what its coding says.
  if (/^(Z_|ERR__|ERR_BROTLI)/.test(code)) {
    return failed(
      `Response body from ${context.host} could not be decoded (${code})`,
      'decode',
      context,
      false,
    );
  }
  if (/^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_)/.test(code)) {
    return failed(`TLS handshake with ${context.host} failed (${code})`, 'tls', context, false);
  }
  return failed(
    `Connection to ${context.host} failed${code ? ` (${code})` : ''}: ${message.slice(0, 200)}`,
    'socket',
    context,
    true,
  );
}
