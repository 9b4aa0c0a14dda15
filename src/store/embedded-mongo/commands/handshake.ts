import type { Document } from 'bson';
import { ErrorCodes, fail } from '../errors';
import type { CommandHandler, CommandRequest } from './types';

/**
 * The server presents itself as a MongoDB 7.0 standalone (wire version 21). Driver 7.x needs a
 * maxWireVersion of at least 9 and knows up to 29. No `topologyVersion` is sent, so the driver's
 * monitor polls with plain `hello` instead of the streaming (awaitable) protocol, and no
 * `setName`/`msg`, so it is a standalone: no retryable-write transaction numbers, no
 * `$readPreference`, no `$clusterTime` gossip.
 */
export const SERVER_VERSION = '7.0.0';
export const MAX_WIRE_VERSION = 21;
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

function helloReply(req: CommandRequest, legacy: boolean): Document {
  return {
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: req.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
}

function checkHello(req: CommandRequest): void {
  if (req.cmd.loadBalanced) {
    throw fail(
      ErrorCodes.BadValue,
      'the embedded server is not behind a load balancer; do not set loadBalanced',
    );
  }
  // Compression and authentication are not offered: the reply simply does not list them.
}

const PARAMETERS: Document = {
  featureCompatibilityVersion: { version: '7.0' },
  authenticationMechanisms: [],
  maxBSONDepth: 100,
};

export const handshakeCommands: Record<string, CommandHandler> = {
  hello: (req) => {
    checkHello(req);
    return helloReply(req, false);
  },
  isMaster: (req) => {
    checkHello(req);
    return helloReply(req, true);
  },
  ismaster: (req) => {
    checkHello(req);
    return helloReply(req, true);
  },
  ping: () => ({ ok: 1 }),
  buildInfo: () => ({
    version: SERVER_VERSION,
    gitVersion: 'embedded',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['embedded'],
    javascriptEngine: 'none',
    modules: [],
    ok: 1,
  }),
  buildinfo: (req) => handshakeCommands.buildInfo(req),
  getParameter: (req) => {
    const out: Document = {};
    const all =
      req.cmd.getParameter === '*' ||
      (typeof req.cmd.getParameter === 'object' && req.cmd.getParameter?.allParameters);
    for (const [name, value] of Object.entries(PARAMETERS)) if (all || name in req.cmd) out[name] = value;
    if (Object.keys(out).length === 0) throw fail(ErrorCodes.InvalidOptions, 'no option found to get');
    return { ...out, ok: 1 };
  },
  endSessions: () => ({ ok: 1 }),
  killSessions: () => ({ ok: 1 }),
  killAllSessions: () => ({ ok: 1 }),
  refreshSessions: () => ({ ok: 1 }),
  whatsmyuri: (req) => ({ you: `127.0.0.1:${req.connectionId}`, ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  hostInfo: () => ({ system: { currentTime: new Date(), hostname: '127.0.0.1' }, os: {}, extra: {}, ok: 1 }),
  getCmdLineOpts: () => ({ argv: ['embedded-mongo'], parsed: {}, ok: 1 }),
  saslStart: () => {
    throw fail(
      ErrorCodes.AuthenticationFailed,
      'the embedded server does not support authentication; connect without credentials',
    );
  },
  authenticate: () => {
    throw fail(
      ErrorCodes.AuthenticationFailed,
      'the embedded server does not support authentication; connect without credentials',
    );
  },
};
