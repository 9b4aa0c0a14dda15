export {
  defineCollection,
  defaultIndexName,
  type BaseDocument,
  type CollectionDefinition,
  type CollectionSpec,
} from './collection-definition';
export {
  connectDocumentStore,
  DocumentStore,
  DEFAULT_CLIENT_OPTIONS,
  type DocumentStoreOptions,
  type DocumentStoreStatus,
} from './document-store';
export { ensureIndexes, type IndexConflict, type IndexReport } from './ensure-indexes';
export {
  isDuplicateKeyError,
  isUnreachableError,
  mapMongoError,
  type MongoErrorContext,
} from './mongo-errors';
export { InsertBatcher } from './insert-batcher';
export { UpdateBatcher } from './update-batcher';
export { openDocuments, dbNameFromUrl, DEFAULT_DB_NAME } from './open-documents';
export { Repository, DEFAULT_FIND_LIMIT, type FindOptions } from './repository.repo';
export type { TransitionOptions } from './versioned-writes';
export { withVersionBump } from './versioned-writes';
