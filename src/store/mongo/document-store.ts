import { performance } from 'node:perf_hooks';
import { MongoClient, type Db, type Document, type MongoClientOptions } from 'mongodb';
import type { z } from 'zod';
import { AppError } from '../../../schemas/errors';
import { silentLogger, type Logger } from '../../logging/logger';
import { traceMongoCommands } from '../../telemetry/mongo-command-spans';
import { telemetry } from '../../telemetry/tracing';
import { redactUrl } from '../redact-url';
import type { BaseDocument, CollectionDefinition } from './collection-definition';
import { ensureIndexes, type IndexReport } from './ensure-indexes';
import { mapMongoError } from './mongo-errors';
import { Repository } from './repository.repo';

/** Options of `connectDocumentStore`. */
export interface DocumentStoreOptions {
  /** `mongodb://` or `mongodb+srv://` URL (credentials are never logged). */
  url: string;
  /** Database name. */
  dbName: string;
  logger?: Logger;
  /**
   * Driver options, applied over the defaults: maxPoolSize 50, serverSelectionTimeoutMS 3000,
   * connectTimeoutMS 3000, retryWrites/retryReads on.
   */
  clientOptions?: MongoClientOptions;
  /** Bound on the ping of `status()`, ms. Default 1000. */
  statusTimeoutMs?: number;
  /** How long a `status()` result is reused, so probes do not ping on every call, ms. Default 1000. */
  statusCacheMs?: number;
  /** Runs after the client closed (openDocuments stops the embedded server with it). */
  afterClose?: () => Promise<void>;
}

/** Health for readiness probes. `detail` never holds a secret. */
export interface DocumentStoreStatus {
  state: 'up' | 'down';
  detail: string;
}

export const DEFAULT_CLIENT_OPTIONS: MongoClientOptions = {
  maxPoolSize: 50,
  // Fail fast when the store is away: callers get UNAVAILABLE in seconds, not after 30 s.
  serverSelectionTimeoutMS: 3000,
  connectTimeoutMS: 3000,
  retryWrites: true,
  retryReads: true,
  appName: 'agent-runtime-service',
};

/**
 * One MongoClient (one pool) for the process, the database, and the typed repositories bound to
 * it. `repository(definition)` remembers each definition so `ensureIndexes()` at boot covers every
 * collection the process uses.
 */
export class DocumentStore {
  private readonly repositories = new Map<string, Repository<BaseDocument & Document, unknown>>();
  private cachedStatus?: { at: number; status: DocumentStoreStatus };
  private closing?: Promise<void>;

  constructor(
    readonly client: MongoClient,
    readonly db: Db,
    private readonly endpoint: string,
    private readonly logger: Logger,
    private readonly options: Pick<
      DocumentStoreOptions,
      'statusTimeoutMs' | 'statusCacheMs' | 'afterClose'
    > = {},
  ) {}

  /** The repository of a collection (one per name; a second, different definition is refused). */
  repository<S extends z.ZodType<BaseDocument & Document>>(
    definition: CollectionDefinition<S>,
  ): Repository<z.output<S>, z.input<S>> {
    const known = this.repositories.get(definition.name);
    if (known) {
      if (known.definition !== (definition as unknown)) {
        throw new AppError('INTERNAL_ERROR', `collection ${definition.name} is defined twice`);
      }
      return known as unknown as Repository<z.output<S>, z.input<S>>;
    }
    const repo = new Repository<z.output<S>, z.input<S>>(
      this.db.collection<z.output<S>>(definition.name),
      definition as unknown as CollectionDefinition<z.ZodType<z.output<S>, z.input<S>>>,
    );
    this.repositories.set(definition.name, repo as unknown as Repository<BaseDocument & Document, unknown>);
    return repo;
  }

  /**
   * Creates the indexes of every collection bound with `repository()` plus `extra` definitions.
   * Idempotent; a changed spec is reported (INTERNAL_ERROR listing each index), never applied.
   */
  async ensureIndexes(extra: readonly CollectionDefinition[] = []): Promise<IndexReport[]> {
    const all = new Map<string, CollectionDefinition>();
    for (const repo of this.repositories.values())
      all.set(repo.name, repo.definition as CollectionDefinition);
    for (const def of extra) all.set(def.name, def);
    return ensureIndexes(this.db, [...all.values()], this.logger);
  }

  /** Pings the server (bounded by `statusTimeoutMs`, reused for `statusCacheMs`); never throws. */
  async status(): Promise<DocumentStoreStatus> {
    if (this.closing) return { state: 'down', detail: 'document store closed' };
    const now = Date.now();
    const cacheMs = this.options.statusCacheMs ?? 1000;
    if (this.cachedStatus && now - this.cachedStatus.at < cacheMs) return this.cachedStatus.status;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ping timed out')), this.options.statusTimeoutMs ?? 1000);
    });
    let status: DocumentStoreStatus;
    try {
      await Promise.race([this.db.command({ ping: 1 }), bound]);
      status = {
        state: 'up',
        detail: `mongodb ${this.endpoint} ping ${Math.round(performance.now() - started)} ms`,
      };
    } catch (err) {
      const reason = err instanceof Error ? err.name.replace(/^Error$/, (err as Error).message) : 'error';
      status = { state: 'down', detail: `mongodb ${this.endpoint} unreachable (${reason})` };
    } finally {
      clearTimeout(timer);
    }
    this.cachedStatus = { at: Date.now(), status };
    return status;
  }

  /** Closes the pool (operations in flight fail with UNAVAILABLE), then runs `afterClose`. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.client.close();
      } finally {
        await this.options.afterClose?.();
        this.logger.info({ endpoint: this.endpoint }, 'documents: closed');
      }
    })();
    return this.closing;
  }
}

/**
 * Connects one MongoClient and checks the server answers. An unreachable server rejects with
 * AppError UNAVAILABLE ("document store unreachable") after `serverSelectionTimeoutMS`; a malformed
 * URL with INTERNAL_ERROR. Neither message contains the URL.
 */
export async function connectDocumentStore(options: DocumentStoreOptions): Promise<DocumentStore> {
  const logger = options.logger ?? silentLogger;
  const endpoint = redactUrl(options.url);
  let client: MongoClient;
  try {
    // Tracing on: the driver reports its commands, each becomes a span (off: no monitoring at all).
    const tracer = telemetry.tracer;
    client = new MongoClient(options.url, {
      ...DEFAULT_CLIENT_OPTIONS,
      ...options.clientOptions,
      ...(tracer ? { monitorCommands: true } : {}),
    });
    if (tracer) traceMongoCommands(client, tracer);
  } catch (err) {
    // The parser's message may quote the URL, password included: keep it out of the error.
    throw new AppError('INTERNAL_ERROR', 'invalid document store URL', { reason: (err as Error).name });
  }
  try {
    await client.connect();
  } catch (err) {
    await client.close().catch(() => undefined);
    logger.error({ endpoint, reason: (err as Error).name }, 'documents: store unreachable');
    throw mapMongoError(err, { op: 'connect' });
  }
  logger.info({ endpoint, db: options.dbName }, 'documents: connected');
  return new DocumentStore(client, client.db(options.dbName), endpoint, logger, options);
}
