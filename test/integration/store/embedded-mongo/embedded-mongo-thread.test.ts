import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import {
  embeddedClientOptions,
  embeddedCommandCounts,
  startEmbeddedMongo,
  startEmbeddedMongoThread,
} from '../../../../src/store/embedded-mongo';
import { refusesConnections } from '../../../support/refuses';

/** A logger whose JSON lines are kept, to see what the thread logged. */
function recordingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('the embedded document server on a thread of its own', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'documents-thread-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the driver, keeps acknowledged writes across a restart, and stops listening on close', async () => {
    const { logger, lines } = recordingLogger();
    const first = await startEmbeddedMongoThread({ dir, logger });
    const client = await MongoClient.connect(first.url, embeddedClientOptions);
    try {
      const before = (await embeddedCommandCounts()).insert ?? 0;
      await client
        .db('t')
        .collection<{ _id: string; n: number }>('c')
        .insertMany([
          { _id: 'a', n: 1 },
          { _id: 'b', n: 2 },
        ]);
      // One insert command, counted on the server's thread and read from this one.
      expect((await embeddedCommandCounts()).insert ?? 0).toBe(before + 1);
    } finally {
      await client.close();
    }
    await first.close();
    expect(await refusesConnections(first.port)).toBe(true);
    // The thread's lines are written by the caller's logger, with the server's own fields.
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 30, component: 'embedded-mongo', msg: 'embedded-mongo listening' }),
    );

    const second = await startEmbeddedMongoThread({ dir });
    const again = await MongoClient.connect(second.url, embeddedClientOptions);
    try {
      const docs = await again.db('t').collection('c').find({}).sort({ _id: 1 }).toArray();
      expect(docs).toEqual([
        { _id: 'a', n: 1 },
        { _id: 'b', n: 2 },
      ]);
    } finally {
      await again.close();
      await second.close();
    }
    // A second close is the first one's answer.
    await expect(second.close()).resolves.toBeUndefined();
  });

  it('gives up on a thread that does not start in time, and leaves the directory to the next one', async () => {
    await expect(startEmbeddedMongoThread({ dir, startTimeoutMs: 1 })).rejects.toThrow(
      /did not start in time/,
    );
    // The thread was stopped: a server started now gets the directory.
    const next = await startEmbeddedMongoThread({ dir });
    await next.close();
  });

  it('fails to start with the server’s own reason when the data directory is in use', async () => {
    const owner = await startEmbeddedMongo({ dir });
    try {
      await expect(startEmbeddedMongoThread({ dir })).rejects.toThrow(/in use|lock/i);
    } finally {
      await owner.close();
    }
  });
});
