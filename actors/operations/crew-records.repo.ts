import type { CrewStore } from './crew-documents.store';
import type { Assignment, CrewNode } from './crew-plan';

const NODE_PREFIX = 'node:';
const ASSIGN_PREFIX = 'assign:';
/**
 * A stored assignment outlives its nodes (so a feature whose every node died shows as uncovered)
 * for an hour; the active node renews it every few minutes while it lives.
 */
const ASSIGN_TTL_MS = 60 * 60_000;
export const ASSIGN_RENEW_MS = 5 * 60_000;

/**
 * The crew's records in its store (the cache: Redis or memory; or the document store): each
 * node's announcement under `node:<nodeId>` with its lease, and each feature's stored crew under
 * `assign:<slug>`. Values are JSON; a record that does not parse reads as absent.
 */
export class CrewRecordsRepo {
  constructor(readonly store: CrewStore) {}

  /** Writes this node's announcement with its lease. */
  announce(node: CrewNode, leaseMs: number): Promise<boolean> {
    return this.store.set(NODE_PREFIX + node.nodeId, JSON.stringify(node), { ttlMs: leaseMs });
  }

  /** Removes a node's announcement (it leaves the crew at once). */
  async leave(nodeId: string): Promise<void> {
    await this.store.delete(NODE_PREFIX + nodeId);
  }

  /** The live nodes (their leases hold), sorted by id. */
  async liveNodes(): Promise<CrewNode[]> {
    const keys = await this.store.list(NODE_PREFIX);
    const values = keys.length ? await this.store.mget(keys) : [];
    return values
      .map((v) => parse<CrewNode>(v))
      .filter((n): n is CrewNode => !!n)
      .sort((a, b) => a.nodeId.localeCompare(b.nodeId));
  }

  /** The slugs of the features with a stored assignment. */
  async assignedSlugs(): Promise<string[]> {
    return (await this.store.list(ASSIGN_PREFIX)).map((k) => k.slice(ASSIGN_PREFIX.length));
  }

  /** The stored assignment of each slug (undefined where none), in order. */
  async assignments(slugs: readonly string[]): Promise<Array<Assignment | undefined>> {
    if (slugs.length === 0) return [];
    const values = await this.store.mget(slugs.map((s) => ASSIGN_PREFIX + s));
    return values.map((v) => parse<Assignment>(v));
  }

  async assign(slug: string, assignment: Assignment): Promise<void> {
    await this.store.set(ASSIGN_PREFIX + slug, JSON.stringify(assignment), { ttlMs: ASSIGN_TTL_MS });
  }

  /** Extends a stored assignment's life (its active node lives). */
  async renew(slug: string): Promise<void> {
    await this.store.expire(ASSIGN_PREFIX + slug, ASSIGN_TTL_MS);
  }
}

function parse<T>(value: string | null | undefined): T | undefined {
  if (!value) return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}
