import type { IndexDescription } from 'mongodb';
import type { z } from 'zod';

/** Every stored document has a string `_id` (prefixed ids such as `exe_…`, or envelope ids). */
export interface BaseDocument {
  _id: string;
}

/** Spec of one collection, given to `defineCollection`. */
export interface CollectionSpec<S extends z.ZodType<BaseDocument>> {
  /** Collection name, for example `executions`. */
  name: string;
  /** Parses every document read back (and every document inserted). */
  schema: S;
  /**
   * Secondary indexes (`_id` is implicit), created by `ensureIndexes` at boot. Give each a `name`
   * so a changed spec is reported under a stable name. Default: none.
   */
  indexes?: IndexDescription[];
  /** Field holding the state of the state machine `transition` drives. Default `status`. */
  stateField?: string;
}

/** A collection's declaration: pure data, bound to a database by `DocumentStore.repository`. */
export interface CollectionDefinition<S extends z.ZodType<BaseDocument> = z.ZodType<BaseDocument>> {
  readonly name: string;
  readonly schema: S;
  readonly indexes: readonly IndexDescription[];
  readonly stateField: string;
}

/**
 * Declares a collection: its name, the zod schema its documents must satisfy, and its indexes.
 * Usually a module-level constant next to the schema, bound at runtime with
 * `documents.repository(definition)`.
 */
export function defineCollection<S extends z.ZodType<BaseDocument>>(
  spec: CollectionSpec<S>,
): CollectionDefinition<S> {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,119}$/.test(spec.name) || spec.name.startsWith('system.')) {
    throw new Error(`defineCollection: invalid collection name "${spec.name}"`);
  }
  return Object.freeze({
    name: spec.name,
    schema: spec.schema,
    indexes: Object.freeze([...(spec.indexes ?? [])]),
    stateField: spec.stateField ?? 'status',
  });
}

/** The name MongoDB gives an index without an explicit name: `a_1_b_-1`. */
export function defaultIndexName(key: IndexDescription['key']): string {
  const entries = key instanceof Map ? [...key.entries()] : Object.entries(key);
  return entries.map(([field, dir]) => `${field}_${String(dir)}`).join('_');
}
