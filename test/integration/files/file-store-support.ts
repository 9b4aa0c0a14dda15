import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileStore, type FileStoreOptions } from '../../../actors/files/file-store';
import { silentLogger } from '../../../src/logging/logger';
import type { DocumentStore } from '../../../src/store/mongo';
import { openDocuments } from '../../../src/store/mongo/open-documents';

/** A file store on the embedded document server under a temporary DATA_DIR, per suite. */
export interface FileStoreTarget {
  documents: DocumentStore;
  files: FileStore;
}

export function useFileStore(options: FileStoreOptions = {}): () => FileStoreTarget {
  let dataDir: string | undefined;
  let target: FileStoreTarget | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'files-test-'));
    const documents = await openDocuments({ MONGODB_URL: undefined, DATA_DIR: dataDir }, silentLogger);
    const files = new FileStore(documents, options);
    await files.ensureIndexes();
    target = { documents, files };
  });
  afterAll(async () => {
    await target?.documents.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return () => target as FileStoreTarget;
}

let counter = 0;

/** A fresh agent space per test, so tests never see each other's files. */
export function agentScope(accountId = 'acc_test'): { agentId: string; accountId: string } {
  counter += 1;
  return { agentId: `agt_${process.pid}_${counter}`, accountId };
}
