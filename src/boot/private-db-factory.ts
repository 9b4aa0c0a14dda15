import { errors } from '../../schemas/errors';
import {
  openPrivateDatabases,
  type PrivateDatabases,
  type PrivateDatabasesOptions,
} from '../../actors/tools/db';
import type { Config } from '../config/load-config';
import type { Logger } from '../logging/logger';

/**
 * The process's private databases (`db_*` tools), opened on first use: PostgreSQL on
 * `DATABASE_URL`, else the embedded PGlite under `DATA_DIR/sql` (which starts a worker thread and
 * opens its data directory as soon as it is created, so a process that never runs a `db_*` call
 * never pays for it). One per process; `close` stops it if it was opened, and later calls fail
 * UNAVAILABLE.
 */
export function createLazyPrivateDatabases(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  logger: Logger,
  options: PrivateDatabasesOptions = {},
): PrivateDatabases {
  let dbs: PrivateDatabases | undefined;
  let closed = false;
  const get = () => {
    if (closed) throw errors.unavailable('The private databases are closed');
    return (dbs ??= openPrivateDatabases(config, logger, options));
  };
  return {
    backend: config.DATABASE_URL ? 'postgres' : 'pglite',
    forAgent: (agentId) => get().forAgent(agentId),
    dropAgent: async (agentId, opts) => get().dropAgent(agentId, opts),
    close: async () => {
      closed = true;
      await dbs?.close();
    },
  };
}
