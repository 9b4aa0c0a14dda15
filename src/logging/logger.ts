import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger };

/** How log lines are written: one JSON object per line, or human-readable (pino-pretty). */
export type LogFormat = 'json' | 'pretty';

/**
 * `LOG_FORMAT=auto` (the default) is pretty when stdout is a terminal (a person reads it) and JSON
 * otherwise (a collector, a pipe, a container's log driver); `json` or `pretty` forces one.
 */
export function chooseLogFormat(
  setting: LogFormat | 'auto',
  stdoutIsTerminal: boolean | undefined,
): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTerminal === true ? 'pretty' : 'json';
}

/**
 * A destination that formats each JSON line with pino-pretty and writes it at once. pino-pretty's
 * own stream goes through a pipeline and writes later: a `fatal` line logged just before
 * `process.exit` (a boot failure) would be lost. `nodeId` is left out: a terminal shows one
 * process, and it would add a line to every entry.
 */
function prettyDestination(target: DestinationStream, colorize: boolean): DestinationStream {
  const format = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,nodeId' });
  return { write: (line: string) => target.write(format(line)) };
}

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
 * where lines go (default stdout); tests pass a stream to read what the service logs. `format`
 * (default `json`): see `chooseLogFormat`; `colorize` applies to `pretty` only (default false).
 */
export function createLogger(options: {
  level: string;
  nodeId?: string;
  destination?: DestinationStream;
  format?: LogFormat;
  colorize?: boolean;
}): Logger {
  const settings = {
    level: options.level,
    base: options.nodeId ? { nodeId: options.nodeId } : undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (options.format === 'pretty') {
    return pino(
      settings,
      prettyDestination(options.destination ?? process.stdout, options.colorize ?? false),
    );
  }
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** A logger that writes nothing (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });
