import type { Document } from 'bson';
import { ErrorCodes, fail, MongoCommandError, toCommandError } from '../errors';
import { catalogCommands } from './catalog';
import { findAndModifyCommands } from './find-and-modify';
import { handshakeCommands } from './handshake';
import { indexCommands } from './indexes';
import { readCommands } from './read';
import type { CommandHandler, CommandReply, CommandRequest } from './types';
import { writeCommands } from './write';

const COMMANDS: Record<string, CommandHandler> = Object.assign(
  Object.create(null) as Record<string, CommandHandler>,
  handshakeCommands,
  readCommands,
  writeCommands,
  findAndModifyCommands,
  indexCommands,
  catalogCommands,
);

/**
 * Real MongoDB commands this server knows it does not implement. They get CommandNotSupported
 * (115) with a clear message; any other unknown name gets CommandNotFound (59), like mongod.
 */
const KNOWN_UNSUPPORTED = new Set([
  'explain',
  'collMod',
  'collStats',
  'validate',
  'compact',
  'mapReduce',
  'geoNear',
  'convertToCapped',
  'cloneCollectionAsCapped',
  'startSession',
  'commitTransaction',
  'abortTransaction',
  'createUser',
  'dropUser',
  'updateUser',
  'usersInfo',
  'createRole',
  'grantRolesToUser',
  'replSetGetStatus',
  'replSetInitiate',
  'shardCollection',
  'serverStatus',
  'currentOp',
  'killOp',
  'fsync',
  'setParameter',
  'shutdown',
  'getLog',
  'top',
  'profile',
  'reIndex',
  'createSearchIndexes',
  'listSearchIndexes',
  'dropSearchIndex',
  'updateSearchIndex',
  'bulkWrite',
  'setFeatureCompatibilityVersion',
  'getLastError',
  'eval',
]);

/** The command name is the first field of the command document. */
export function commandName(cmd: Document): string | undefined {
  for (const key in cmd) return key;
  return undefined;
}

function checkEnvelope(cmd: Document): void {
  if (cmd.txnNumber !== undefined || cmd.startTransaction !== undefined || cmd.autocommit !== undefined) {
    throw fail(
      ErrorCodes.IllegalOperation,
      'Transaction numbers are only allowed on a replica set member or mongos',
    );
  }
  const rc = cmd.readConcern as Document | undefined;
  if (rc && typeof rc === 'object' && rc.level === 'snapshot') {
    throw fail(ErrorCodes.InvalidOptions, 'readConcern level snapshot is only supported on replica sets');
  }
  const wc = cmd.writeConcern as Document | undefined;
  if (wc && typeof wc === 'object' && typeof wc.w === 'number' && wc.w > 1) {
    throw fail(ErrorCodes.BadValue, "cannot use 'w' > 1 on a standalone");
  }
}

/**
 * Commands run by the embedded servers of this process since it started, by name (`insert`,
 * `update`, `find`, `findAndModify`…): what benchmarks report as document work per request.
 */
export const commandCounts: Record<string, number> = Object.create(null) as Record<string, number>;

/**
 * Runs one command and always produces a reply: a result, or `{ ok: 0, errmsg, code, codeName }`.
 * `lsid`, `$db`, `$clusterTime`, `$readPreference`, `readConcern` (except snapshot),
 * `writeConcern` (w <= 1 or majority; every write is journaled anyway), `comment` and
 * `maxTimeMS` are accepted and need nothing more.
 */
export function runCommand(req: CommandRequest): CommandReply | Promise<CommandReply> {
  const name = commandName(req.cmd);
  if (name !== undefined) commandCounts[name] = (commandCounts[name] ?? 0) + 1;
  try {
    if (name === undefined) throw fail(ErrorCodes.FailedToParse, 'empty command document');
    const handler = COMMANDS[name];
    if (!handler) {
      if (KNOWN_UNSUPPORTED.has(name))
        throw fail(ErrorCodes.CommandNotSupported, `command ${name} is not supported by the embedded server`);
      throw fail(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
    }
    checkEnvelope(req.cmd);
    const reply = handler(req);
    // Reads answer synchronously; only writes wait (for the journal).
    return reply instanceof Promise ? reply.catch((err: unknown) => errorReply(req, name, err)) : reply;
  } catch (err) {
    return errorReply(req, name, err);
  }
}

function errorReply(req: CommandRequest, name: string | undefined, err: unknown): Document {
  const e = toCommandError(err);
  if (!(err instanceof MongoCommandError) && !isMingoError(err)) {
    req.ctx.logger.debug({ err, command: name }, 'embedded-mongo command failed with an unexpected error');
  }
  return e.toReply();
}

function isMingoError(err: unknown): boolean {
  return err instanceof Error && err.constructor?.name === 'MingoError';
}
