import { isAppError } from '../schemas/errors';
import { EnvFileError, loadEnvFile } from './config/env-file';
import { ConfigError, loadConfig } from './config/load-config';
import { startRuntime } from './boot/runtime';
import { chooseLogFormat, createLogger } from './logging/logger';

/**
 * The one program. ROLE=all|api|worker picks what runs (see docs/architecture.md).
 * SIGTERM/SIGINT stop it gracefully: stop consuming, finish turns in flight, close.
 * A `.env` file in the working directory is read first (the environment wins over it).
 */
async function main(): Promise<void> {
  let config;
  let envFile;
  try {
    envFile = loadEnvFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof EnvFileError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const terminal = process.stdout.isTTY;
  const logger = createLogger({
    level: config.LOG_LEVEL,
    nodeId: config.NODE_ID,
    format: chooseLogFormat(config.LOG_FORMAT, terminal),
    colorize: terminal,
  });
  // Names only: the values may be secrets.
  if (envFile.found) {
    logger.info(
      { file: envFile.file, set: envFile.applied, keptFromEnvironment: envFile.alreadySet },
      'read the .env file',
    );
  }
  let runtime;
  try {
    runtime = await startRuntime(config, logger);
  } catch (err) {
    if (isAppError(err)) logger.fatal(`cannot start: ${err.message}`);
    else logger.fatal({ err }, 'cannot start');
    process.exit(1);
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    runtime.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
