import type { Collection, Document, Filter, UpdateFilter } from 'mongodb';
import { AppError, errors } from '../../../schemas/errors';
import type { BaseDocument, CollectionDefinition } from './collection-definition';
import { mapMongoError } from './mongo-errors';

/** Options of `Repository.transition`. */
export interface TransitionOptions<T> {
  /** States the document may be in for the step to apply. */
  from: readonly string[];
  /** The new state. */
  to: string;
  /** Other fields set in the same atomic write. Must not contain the state field or `version`. */
  set?: Partial<T>;
  /** Fields removed in the same write (for example a lease). */
  unset?: readonly string[];
  /** Also require this `version` (a caller that read the document and decided on it). */
  expectedVersion?: number;
}

/**
 * Adds `$inc: { version: 1 }` to an update. The helpers own `version`: an update that sets or
 * increments it itself is refused, so the counter can only move by one per conditional write.
 */
export function withVersionBump<T>(update: UpdateFilter<T>): UpdateFilter<T> {
  const u = update as Record<string, unknown>;
  for (const [operator, fields] of Object.entries(u)) {
    if (!operator.startsWith('$')) {
      throw new AppError(
        'INTERNAL_ERROR',
        'versioned update: use update operators ($set, ...), not a replacement',
      );
    }
    if (fields && typeof fields === 'object' && 'version' in fields) {
      throw new AppError('INTERNAL_ERROR', `versioned update: ${operator}.version is managed by the helper`);
    }
  }
  const inc = (u.$inc as Record<string, unknown> | undefined) ?? {};
  return { ...u, $inc: { ...inc, version: 1 } } as unknown as UpdateFilter<T>;
}

/**
 * Why a conditional write matched nothing: the document is missing (NOT_FOUND) or someone else
 * changed it first (CONFLICT with its current version and state). Reads only those two fields, so
 * no other content of the document reaches the error.
 */
export async function explainMiss<T extends BaseDocument & Document>(
  raw: Collection<T>,
  definition: CollectionDefinition,
  id: string,
  expected: { expectedVersion?: number; from?: readonly string[]; to?: string },
): Promise<AppError> {
  const field = definition.stateField;
  let current: Document | null;
  try {
    current = await raw.findOne({ _id: id } as Filter<T>, { projection: { version: 1, [field]: 1 } });
  } catch (err) {
    return mapMongoError(err, { collection: definition.name, op: 'explainMiss' });
  }
  if (!current) {
    return errors.notFound(`${definition.name} ${id} not found`, { collection: definition.name, id });
  }
  const currentVersion = current.version as unknown;
  const currentState = current[field] as unknown;
  const details: Record<string, unknown> = {
    collection: definition.name,
    id,
    currentVersion,
    ...(currentState === undefined ? {} : { currentState }),
    ...(expected.expectedVersion === undefined ? {} : { expectedVersion: expected.expectedVersion }),
  };
  if (expected.from) {
    details.field = field;
    details.from = expected.from;
    details.to = expected.to;
    if (typeof currentState !== 'string' || !expected.from.includes(currentState)) {
      return errors.conflict(
        `${definition.name} ${id} is ${String(currentState)}, not ${expected.from.join(' or ')}`,
        details,
      );
    }
  }
  return errors.conflict(
    expected.expectedVersion !== undefined && currentVersion !== expected.expectedVersion
      ? `${definition.name} ${id} was changed concurrently (expected version ${expected.expectedVersion}, now ${String(currentVersion)})`
      : `${definition.name} ${id} was changed concurrently`,
    details,
  );
}
