import type { Filter, UpdateFilter } from 'mongodb';
import type {
  ConnectorDocument,
  ConnectorDocumentInput,
  SealedPair,
} from '../../schemas/documents/connector';
import { isAppError } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { Repository } from '../../src/store/mongo';
import { pagesById } from '../../src/store/mongo/pages-by-id';
import {
  CONNECTOR_KEY_UNKNOWN,
  CONNECTOR_VALUE_UNREADABLE,
  type ConnectorSealer,
  type SealedField,
} from './connector-secrets';
import { openConnector } from './connectors.collection';

type ConnectorsRepo = Repository<ConnectorDocument, ConnectorDocumentInput>;

const FIELDS: readonly SealedField[] = ['env', 'headers'];

/** What a re-sealing pass did, in connectors (counts only: never a value, never an account id). */
export interface ConnectorRekeyReport {
  /** Connectors whose values this pass re-sealed under the current master key. */
  resealed: number;
  /** Connectors whose values were all under the current key already (or that hold none). */
  current: number;
  /** Connectors holding a value under a key this process does not hold (marked `error`, left as they are). */
  unreadable: number;
  /** Connectors changed by someone else meanwhile (another node's pass, a lazy re-seal): left to them. */
  skipped: number;
}

const PAGE = 200;

/**
 * Matches the document only while every sealed value is still the one read: the re-sealing and
 * the health mark are conditional writes, so another node's pass (or a delete and re-create) is
 * never overwritten with an older envelope.
 */
function unchanged(doc: ConnectorDocument): Filter<ConnectorDocument> {
  const filter: Record<string, unknown> = { _id: doc._id };
  for (const field of FIELDS) {
    doc[field].forEach((pair, i) => {
      filter[`${field}.${i}.value`] = pair.value;
    });
  }
  return filter as Filter<ConnectorDocument>;
}

/** Whether an error of opening a connector's values is one the health should show. */
export function isSealingError(err: unknown): boolean {
  const reason = isAppError(err) ? err.details.reason : undefined;
  return reason === CONNECTOR_KEY_UNKNOWN || reason === CONNECTOR_VALUE_UNREADABLE;
}

/**
 * Stores the re-sealed lists in place of the ones read, if they are still those (see `unchanged`).
 * `version` does not move (the values did not change, only their envelopes). A connector marked
 * `error` because its values were under a key not held becomes `active` again: that is resolved
 * (the next call or refresh tells whether the server itself answers).
 */
export async function storeResealed(
  repo: ConnectorsRepo,
  doc: ConnectorDocument,
  resealed: Partial<Record<SealedField, SealedPair[]>>,
): Promise<boolean> {
  const update: UpdateFilter<ConnectorDocument> = { $set: { ...resealed } };
  if (doc.lastError?.reason === CONNECTOR_KEY_UNKNOWN) {
    update.$set = { ...update.$set, health: 'active' };
    update.$unset = { lastError: '' };
  }
  const res = await repo.updateOne(unchanged(doc), update);
  return res.modified > 0;
}

/**
 * Records on the connector that its values do not open (`health: 'error'`, `lastError` with the
 * sealer's message, which names the header or variable and never holds a value). Resolves the
 * document as it is now. No write when it already says so.
 */
export async function markUnreadable(
  repo: ConnectorsRepo,
  doc: ConnectorDocument,
  err: unknown,
): Promise<ConnectorDocument> {
  if (!isAppError(err) || !isSealingError(err)) return doc;
  const message = err.message.slice(0, 500);
  if (doc.health === 'error' && doc.lastError?.message === message) return doc;
  const update: UpdateFilter<ConnectorDocument> = {
    $set: { health: 'error', lastError: { message, at: new Date(), reason: String(err.details.reason) } },
  };
  return (await repo.findOneAndUpdate(unchanged(doc), update)) ?? doc;
}

/**
 * Re-seals the values of every connector that holds one not under the current master key
 * (docs/connectors.md, "Master key rotation"), and marks `error` the connectors holding a value
 * under a key this process does not hold. Run at startup on nodes hosting actors, beside the
 * vault's pass. Idempotent; safe on several nodes at once.
 */
export async function rekeyConnectors(
  repo: ConnectorsRepo,
  sealer: ConnectorSealer,
  logger: Logger,
): Promise<ConnectorRekeyReport> {
  const report: ConnectorRekeyReport = { resealed: 0, current: 0, unreadable: 0, skipped: 0 };
  for await (const page of pagesById(repo, PAGE)) {
    for (const doc of page) {
      const stale = FIELDS.some((field) => doc[field].some((pair) => !sealer.isCurrent(pair.value)));
      if (!stale && doc.lastError?.reason !== CONNECTOR_KEY_UNKNOWN) {
        report.current++;
        continue;
      }
      try {
        const { resealed } = openConnector(doc, sealer);
        if (await storeResealed(repo, doc, resealed ?? {})) report[stale ? 'resealed' : 'current']++;
        else report.skipped++;
      } catch (err) {
        if (!isSealingError(err)) throw err;
        report.unreadable++;
        await markUnreadable(repo, doc, err);
        // Ids, names and the key id only (the error never holds a value).
        const details = isAppError(err) ? err.details : {};
        logger.warn(
          {
            connectorId: doc._id,
            reason: details.reason,
            keyId: details.keyId,
            header: details.header,
            variable: details.variable,
          },
          'connectors: value not re-sealed',
        );
      }
    }
  }
  return report;
}
