import type { UpdateFilter } from 'mongodb';
import type {
  AuditOutcome,
  ConnectorDocument,
  ConnectorDocumentInput,
} from '../../schemas/documents/connector';
import type { ConnectorsOutcomeMessage } from '../../schemas/messages/connectors';
import type { Repository } from '../../src/store/mongo';
import { latestOutcome } from './connectors.collection';

/** Most references kept per kind in `usedBy`. */
const MAX_USED_BY = 100;

/**
 * The outcomes of calls, kept in the `connectors:<accountId>` actor and written cheaply: at most
 * one write per connector per `flushMs`, at once when the health changes or a new app/workflow/skill
 * uses the connector, and at passivation. Reads merge what is not written yet (`pending`).
 * The writes do not bump `version` (they commute with the versioned configuration changes).
 */
export class AuditBuffer {
  private readonly entries = new Map<string, { pending?: AuditOutcome; flushedAt: number }>();

  constructor(
    private readonly repo: Repository<ConnectorDocument, ConnectorDocumentInput>,
    private readonly flushMs: number,
  ) {}

  /** The outcome not written yet for a connector. */
  pending(connectorId: string): AuditOutcome | undefined {
    return this.entries.get(connectorId)?.pending;
  }

  forget(connectorId: string): void {
    this.entries.delete(connectorId);
  }

  /** Records one outcome; resolves whether the document was written. */
  async record(
    doc: ConnectorDocument,
    outcome: ConnectorsOutcomeMessage,
    now = Date.now(),
  ): Promise<boolean> {
    const entry = this.entries.get(doc._id) ?? { flushedAt: 0 };
    this.entries.set(doc._id, entry);
    entry.pending = latestOutcome(entry.pending, {
      success: outcome.success,
      tool: outcome.tool,
      at: new Date(outcome.at),
    });
    const healthChanged = outcome.health !== undefined && outcome.health !== doc.health;
    const newUses = newReferences(doc, outcome.related);
    if (!healthChanged && !newUses && now - entry.flushedAt < this.flushMs) return false;

    const set: Record<string, unknown> = { lastAuditOutcome: entry.pending };
    const update: Record<string, unknown> = { $set: set };
    if (healthChanged) {
      set.health = outcome.health;
      if (outcome.health === 'error')
        set.lastError = { message: outcome.error ?? 'Connection failed', at: new Date(outcome.at) };
      else update.$unset = { lastError: '' };
    }
    if (newUses) update.$addToSet = newUses;
    await this.repo.updateOne({ _id: doc._id }, update as UpdateFilter<ConnectorDocument>);
    entry.flushedAt = now;
    entry.pending = undefined;
    return true;
  }

  /** Writes every pending outcome (passivation). */
  async flushAll(): Promise<void> {
    for (const [id, entry] of this.entries) {
      if (!entry.pending) continue;
      await this.repo
        .updateOne({ _id: id }, {
          $set: { lastAuditOutcome: entry.pending },
        } as UpdateFilter<ConnectorDocument>)
        .catch(() => undefined);
      entry.pending = undefined;
    }
  }
}

/** `$addToSet` of the references not yet in `usedBy` (bounded), or undefined. */
function newReferences(
  doc: ConnectorDocument,
  related: ConnectorsOutcomeMessage['related'],
): Record<string, { $each: string[] }> | undefined {
  if (!related) return undefined;
  const out: Record<string, { $each: string[] }> = {};
  for (const kind of ['apps', 'workflows', 'skills'] as const) {
    const known = doc.usedBy[kind];
    const fresh = [...new Set(related[kind] ?? [])].filter((ref) => !known.includes(ref));
    const room = Math.max(0, MAX_USED_BY - known.length);
    if (fresh.length > 0 && room > 0) out[`usedBy.${kind}`] = { $each: fresh.slice(0, room) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
