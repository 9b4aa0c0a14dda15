import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';
import { embeddedClientOptions, startEmbeddedMongo } from '../../../src/store/embedded-mongo';
import { serviceUrl } from '../../support/services';

/**
 * Where the MongoDB conformance suites run: the embedded server always, and a real MongoDB
 * whenever MONGODB_URL is set (probed by test/support/global-setup.js). The same assertions must
 * pass on both; behaviour only the embedded server has is guarded by `embedded`.
 */
export interface MongoTarget {
  name: string;
  embedded: boolean;
  start(): Promise<{ url: string; options: MongoClientOptions; stop(): Promise<void> }>;
}

/** Which targets a suite wants besides the defaults. */
export interface TargetOptions {
  /** Also run against the embedded server with a journal in a temporary directory. Default false. */
  journaled?: boolean;
}

export function mongoTargets(opts: TargetOptions = {}): MongoTarget[] {
  const targets: MongoTarget[] = [
    {
      name: 'embedded',
      embedded: true,
      start: async () => {
        const server = await startEmbeddedMongo({ port: 0 });
        return { url: server.url, options: embeddedClientOptions, stop: () => server.close() };
      },
    },
  ];
  if (opts.journaled) {
    targets.push({
      name: 'embedded, journaled',
      embedded: true,
      start: async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'emb-mongo-conf-'));
        const server = await startEmbeddedMongo({ port: 0, dir });
        return {
          url: server.url,
          options: embeddedClientOptions,
          stop: async () => {
            await server.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    });
  }
  const real = serviceUrl('mongodb');
  if (real)
    targets.push({
      name: 'real MongoDB',
      embedded: false,
      start: async () => ({ url: real, options: {}, stop: async () => {} }),
    });
  return targets;
}

/** What a suite gets: a connected client and a database unique to this run (dropped afterwards). */
export interface TargetContext {
  client: MongoClient;
  db: Db;
  url: string;
  options: MongoClientOptions;
  embedded: boolean;
}

/** Runs `fn` once per target, inside `describe('<title> [<target>]')`. */
export function describeEachTarget(
  title: string,
  fn: (t: () => TargetContext) => void,
  opts: TargetOptions = {},
): void {
  for (const target of mongoTargets(opts)) {
    describe(`${title} [${target.name}]`, () => {
      let ctx: TargetContext | undefined;
      let stop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const started = await target.start();
        stop = started.stop;
        const client = new MongoClient(started.url, started.options);
        await client.connect();
        const db = client.db(`conf_${process.pid}_${randomBytes(4).toString('hex')}`);
        ctx = { client, db, url: started.url, options: started.options, embedded: target.embedded };
      });
      afterAll(async () => {
        if (ctx) {
          await ctx.db.dropDatabase().catch(() => undefined);
          await ctx.client.close();
        }
        await stop?.();
      });
      fn(() => {
        if (!ctx) throw new Error('target not started');
        return ctx;
      });
    });
  }
}

/**
 * Schema of the collections under test: `_id` of any BSON type and free-form fields. The driver's
 * typed filters and updates cannot express that, and the types are not what these suites test.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDoc = any;
