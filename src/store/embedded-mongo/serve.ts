/**
 * Runs the embedded document server on its own, to inspect or edit data with any MongoDB tool:
 *
 *   npm run store:serve -- --port 27018 --dir ./data/mongo
 *   mongosh mongodb://127.0.0.1:27018/
 *
 * Stop the service first: a data directory is used by one server at a time.
 */
import { createLogger } from '../../logging/logger';
import { startEmbeddedMongo } from './index';

interface CliOptions {
  port: number;
  dir?: string;
}

const USAGE =
  'usage: store:serve [--port <n, default 27017>] [--dir <data directory; memory only when omitted>]';

export function parseArgs(argv: string[]): CliOptions {
  const out: CliOptions = { port: 27017 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port must be 0-65535\n${USAGE}`);
      out.port = port;
    } else if (flag === '--dir') out.dir = value();
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument '${arg}'\n${USAGE}`);
  }
  return out;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: 'info' });
  const server = await startEmbeddedMongo({ port: options.port, dir: options.dir, logger });
  logger.info(
    { url: server.url, dir: options.dir ?? '(memory only)' },
    `embedded MongoDB ready at ${server.url}`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'embedded MongoDB stopping');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'embedded MongoDB did not close cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`embedded MongoDB failed to start: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  });
}
