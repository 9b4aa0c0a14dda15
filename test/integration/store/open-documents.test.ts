import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { silentLogger } from '../../../src/logging/logger';
import { defineCollection } from '../../../src/store/mongo/collection-definition';
import { dbNameFromUrl, openDocuments } from '../../../src/store/mongo/open-documents';
import { describeWithService } from '../../support/services';
import { refusesConnections } from '../../support/refuses';

const notes = defineCollection({
  name: 'notes',
  schema: z.object({ _id: z.string(), text: z.string() }),
  indexes: [{ key: { text: 1 }, name: 'text_1' }],
});

function portOf(detail: string): number {
  return Number(/:(\d+)\//.exec(detail)?.[1]);
}

describe.each([
  ['on the main thread', false],
  ['on a thread of its own (DOCUMENTS_THREAD)', true],
])('openDocuments in embedded mode (MONGODB_URL unset), the server %s', (_label, thread) => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'documents-test-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts the embedded server under DATA_DIR/documents, keeps data across restarts, stops it on close', async () => {
    const first = await openDocuments(
      { MONGODB_URL: undefined, DATA_DIR: dataDir, DOCUMENTS_THREAD: thread },
      silentLogger,
    );
    const status = await first.status();
    expect(status.state).toBe('up');
    expect(first.db.databaseName).toBe('agent_runtime');
    await first.repository(notes).insert({ _id: 'n1', text: 'kept' });
    expect(await first.ensureIndexes()).toEqual([
      { collection: 'notes', created: ['text_1'], unchanged: [] },
    ]);
    await first.close();
    expect(await refusesConnections(portOf(status.detail))).toBe(true);

    const second = await openDocuments(
      { MONGODB_URL: undefined, DATA_DIR: dataDir, DOCUMENTS_THREAD: thread },
      silentLogger,
    );
    try {
      expect(await second.repository(notes).findById('n1')).toEqual({ _id: 'n1', text: 'kept' });
      expect(await second.ensureIndexes()).toEqual([
        { collection: 'notes', created: [], unchanged: ['text_1'] },
      ]);
    } finally {
      await second.close();
    }
  });
});

describe('dbNameFromUrl', () => {
  it('reads the database from the URL path, if any', () => {
    expect(dbNameFromUrl('mongodb://u:p@h1:1,h2:2/prod?replicaSet=rs')).toBe('prod');
    expect(dbNameFromUrl('mongodb+srv://cluster.example.net/app')).toBe('app');
    expect(dbNameFromUrl('mongodb://localhost:27017/')).toBeUndefined();
    expect(dbNameFromUrl('mongodb://localhost:27017')).toBeUndefined();
    expect(dbNameFromUrl('mongodb://localhost/?w=majority')).toBeUndefined();
  });
});

describeWithService('mongodb', 'openDocuments with MONGODB_URL', (url) => {
  it('connects to the configured server', async () => {
    const store = await openDocuments({ MONGODB_URL: url, DATA_DIR: os.tmpdir() }, silentLogger);
    try {
      expect((await store.status()).state).toBe('up');
    } finally {
      await store.close();
    }
  });
});
