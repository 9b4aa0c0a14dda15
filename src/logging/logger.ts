import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Field paths that must never reach a log line. Values under these keys are replaced; secrets in
 * free text are the caller's job (see the redaction helpers of the tool router and vault).
 */
const REDACT_PATHS = [
  'password',
  'newPassword',
  'token',
  'bearerToken',
  'apiKey',
  'secret',
  'value',
  'authorization',
  'cookie',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.bearerToken',
  '*.apiKey',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

/** The root logger of a process. Children carry `component`, `nodeId`, `reqId`. */
export function createLogger(options: { level: string; nodeId?: string }): Logger {
  return pino({
    level: options.level,
    base: options.nodeId ? { nodeId: options.nodeId } : undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  });
}

/** A logger that writes nothing (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });
