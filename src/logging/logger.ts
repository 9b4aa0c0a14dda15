import pino, { type DestinationStream, type Logger } from 'pino';

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
  // The vault (docs/vault.md): values sealed for transit, credential hashes; never logged anyway.
  'sealedValue',
  'secretHash',
  '*.value',
  '*.sealedValue',
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

/**
 * The root logger of a process. Children carry `component`, `nodeId`, `reqId`. `destination`:
 * where lines go (default stdout); tests pass a stream to read what the service logs.
 */
export function createLogger(options: {
  level: string;
  nodeId?: string;
  destination?: DestinationStream;
}): Logger {
  const settings = {
    level: options.level,
    base: options.nodeId ? { nodeId: options.nodeId } : undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** A logger that writes nothing (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });
