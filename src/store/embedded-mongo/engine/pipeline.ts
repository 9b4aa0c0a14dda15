import type { Document } from 'bson';
import { aggregate } from 'mingo';
import { ErrorCodes, fail } from '../errors';
import { cloneDocument } from './clone';
import { MINGO_OPTIONS } from './mingo-options';
import { matcher, type MatchOptions } from './planner';
import { countDocuments } from './query-exec';
import type { Store } from './store';
import { isPlainObject } from './value-key';

/** Stages mingo runs for us. */
const SUPPORTED = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$graphLookup',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$setWindowFields',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
]);
/** Stages that build new documents without writing into their input, so stored documents need no copy. */
const NON_MUTATING = new Set([
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$group',
  '$project',
  '$sortByCount',
  '$unwind',
  '$sample',
]);
/** Real MongoDB stages this server deliberately does not offer (answered with an error, never ignored). */
const UNSUPPORTED = new Set([
  '$out',
  '$merge',
  '$collStats',
  '$indexStats',
  '$currentOp',
  '$listSessions',
  '$listLocalSessions',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$vectorSearch',
  '$geoNear',
  '$listSearchIndexes',
  '$shardedDataDistribution',
]);

function stageName(stage: unknown): string {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
    throw fail(
      ErrorCodes.Location40324,
      'A pipeline stage specification object must contain exactly one field.',
    );
  }
  return Object.keys(stage)[0];
}

/** Validates a pipeline; returns the stage names. */
export function checkPipeline(pipeline: unknown): string[] {
  if (!Array.isArray(pipeline))
    throw fail(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  return pipeline.map((stage) => {
    const name = stageName(stage);
    if (name === '$changeStream')
      throw fail(ErrorCodes.Location40573, 'The $changeStream stage is only supported on replica sets');
    if (UNSUPPORTED.has(name))
      throw fail(ErrorCodes.CommandNotSupported, `${name} is not supported by the embedded server`);
    if (!SUPPORTED.has(name))
      throw fail(ErrorCodes.Location40324, `Unrecognized pipeline stage name: '${name}'`);
    return name;
  });
}

/** The `$match` + `$group: { _id: 1, n: { $sum: 1 } }` shape the driver's countDocuments sends. */
function countShape(stages: Document[]): { skip?: number; limit?: number } | undefined {
  let i = 0;
  const out: { skip?: number; limit?: number } = {};
  if (stages[i]?.$skip !== undefined) out.skip = stages[i++].$skip as number;
  if (stages[i]?.$limit !== undefined) out.limit = stages[i++].$limit as number;
  const group = stages[i]?.$group;
  if (i !== stages.length - 1 || !isPlainObject(group)) return undefined;
  const keys = Object.keys(group);
  const acc = group[keys[1]];
  if (
    keys.length !== 2 ||
    keys[0] !== '_id' ||
    !isPlainObject(acc) ||
    Object.keys(acc).length !== 1 ||
    acc.$sum !== 1
  )
    return undefined;
  if (typeof group._id !== 'number' && typeof group._id !== 'string' && group._id !== null) return undefined;
  if (typeof group._id === 'string' && group._id.startsWith('$')) return undefined;
  if ([out.skip, out.limit].some((v) => v !== undefined && (!Number.isInteger(v) || (v as number) < 0)))
    return undefined;
  return out;
}

/**
 * Runs an aggregation over a collection (or over `$documents` when `collName` is undefined).
 * A leading `$match` uses the same index lookups as `find`.
 */
export function runPipeline(
  store: Store,
  db: string,
  collName: string | undefined,
  pipeline: Document[],
  opts: MatchOptions,
): Document[] {
  const names = checkPipeline(pipeline);
  const coll = collName === undefined ? undefined : store.collection(db, collName);
  let stages = pipeline;
  let filter: unknown = {};
  if (names[0] === '$match') {
    filter = pipeline[0].$match;
    stages = pipeline.slice(1);
  }
  const counted = collName !== undefined ? countShape(stages) : undefined;
  if (counted) {
    const n = countDocuments(coll, filter, { ...opts, ...counted });
    if (n === 0) return [];
    const group = stages[stages.length - 1].$group as Document;
    return [{ _id: group._id, [Object.keys(group)[1]]: n }];
  }
  const copy = !stages.every((s) => NON_MUTATING.has(Object.keys(s)[0]));
  let input: Document[] = [];
  if (collName !== undefined) {
    const m = matcher(coll, filter, opts);
    for (const doc of m.matches()) input.push(doc);
    if (copy) input = input.map(cloneDocument);
  } else if (names[0] !== '$documents') {
    throw fail(
      ErrorCodes.CommandNotSupported,
      'aggregate: 1 supports only pipelines that start with $documents here',
    );
  }
  const resolver = (name: string): Document[] => {
    const other = store.collection(db, name);
    if (!other) return [];
    const now = Date.now();
    const docs: Document[] = [];
    for (const d of other.docs.values())
      if (!(other.ttl.length > 0 && other.isExpired(d, now))) docs.push(copy ? cloneDocument(d) : d);
    return docs;
  };
  return aggregate(input, stages, {
    ...MINGO_OPTIONS,
    collation: opts.collation,
    variables: opts.variables,
    collectionResolver: resolver,
  }) as Document[];
}
