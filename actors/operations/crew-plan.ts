import { createHash } from 'node:crypto';

/**
 * The pure part of the crew (docs/operations.md, "The crew"): from the live nodes and the stored
 * assignments, which node is active and which is standby for each feature. Every node computes
 * the same answer from the same records, so no election round is needed: a stored assignment is
 * kept while its nodes live, its standby is promoted when the active one is gone, and a feature
 * without one gets the two nodes ranked first by rendezvous hashing (spreads features over nodes).
 */

/** What a process announces on each heartbeat. */
export interface CrewNode {
  nodeId: string;
  role: string;
  /** Actor kinds it consumes. */
  kinds: string[];
  /** Runtime functions it offers: `sandbox`, `http-egress`, `connectors`. */
  runtime: string[];
  /** Background duties it can run. */
  duties: string[];
  load: { actors: number; inFlight: number; rssBytes: number; loadAvg1m: number };
  startedAt: string;
  /** Epoch ms of this heartbeat. */
  beatAt: number;
}

export interface Failover {
  from: string;
  to: string;
  by: string;
  reason: string;
  at: string;
}

/** The stored crew of a feature. */
export interface Assignment {
  active: string | null;
  standby: string | null;
  lastFailover?: Failover;
}

export type FeatureKind = 'actor' | 'runtime' | 'duty' | 'skill' | 'app';
/** Kinds whose features are served through runtime functions (an installed skill or app). */
const COMPOSITE: ReadonlySet<string> = new Set(['skill', 'app']);

/**
 * The runtime functions each installed catalog skill and app uses, by feature slug (`skill:<slug>`,
 * `app:<slug>`): its coverage is the nodes that offer every one of them.
 */
export type FeatureUses = ReadonlyMap<string, readonly string[]>;
const NO_USES: FeatureUses = new Map();
const kindOf = (slug: string) => slug.split(':')[0];
export type Coverage = 'fullyCovered' | 'degraded' | 'uncovered';

export interface FeatureCrew extends Assignment {
  featureSlug: string;
  kind: FeatureKind;
  coverage: Coverage;
  /** The runtime functions a skill or app feature uses (absent for the other kinds). */
  uses?: string[];
}

/** `actor:<kind>`, `runtime:<function>`, `duty:<name>`, `skill:<slug>`, `app:<slug>`. */
export const featureSlug = (kind: FeatureKind, name: string) => `${kind}:${name}`;

/**
 * Every feature some live node (or a known one) offers, and every installed skill and app, sorted.
 * A known skill or app (a stored assignment) that is no longer installed is left out: the list of
 * installations is the truth for those, not an assignment that outlived them.
 */
export function featuresOf(
  nodes: readonly CrewNode[],
  known: readonly string[] = [],
  uses: FeatureUses = NO_USES,
): string[] {
  const all = new Set(known.filter((slug) => !COMPOSITE.has(kindOf(slug)) || uses.has(slug)));
  for (const slug of uses.keys()) all.add(slug);
  for (const n of nodes) {
    for (const k of n.kinds) all.add(featureSlug('actor', k));
    for (const r of n.runtime) all.add(featureSlug('runtime', r));
    for (const d of n.duties) all.add(featureSlug('duty', d));
  }
  return [...all].sort();
}

/**
 * Whether a node can serve a feature. A skill or app needs every runtime function it uses on the
 * same node (its capability runs in that node's sandbox and calls out from there); one that uses
 * none still needs a node that hosts actors (one offering runtime functions at all).
 */
export function canServe(node: CrewNode, slug: string, uses: FeatureUses = NO_USES): boolean {
  const [kind, ...rest] = slug.split(':');
  const name = rest.join(':');
  if (kind === 'actor') return node.kinds.includes(name);
  if (kind === 'runtime') return node.runtime.includes(name);
  if (kind === 'duty') return node.duties.includes(name);
  if (COMPOSITE.has(kind)) {
    const needs = uses.get(slug);
    return !!needs && node.runtime.length > 0 && needs.every((f) => node.runtime.includes(f));
  }
  return false;
}

const score = (slug: string, nodeId: string) =>
  createHash('sha1').update(`${slug}\u0000${nodeId}`).digest().readUInt32BE(0);

/** Candidates of a feature, best first (rendezvous hashing; ties by node id). */
export function ranked(slug: string, nodes: readonly CrewNode[], uses: FeatureUses = NO_USES): string[] {
  return nodes
    .filter((n) => canServe(n, slug, uses))
    .map((n) => n.nodeId)
    .sort((a, b) => score(slug, b) - score(slug, a) || a.localeCompare(b));
}

/** The crew of a feature now, from its stored assignment (if any) and the live candidates. */
export function planFeature(
  slug: string,
  nodes: readonly CrewNode[],
  stored?: Assignment,
  uses: FeatureUses = NO_USES,
): FeatureCrew {
  const candidates = ranked(slug, nodes, uses);
  const live = (id: string | null | undefined): id is string => !!id && candidates.includes(id);
  let active: string | null;
  if (live(stored?.active)) active = stored.active;
  else if (live(stored?.standby)) active = stored.standby;
  else active = candidates[0] ?? null;
  const standby =
    live(stored?.standby) && stored.standby !== active
      ? stored.standby
      : (candidates.find((id) => id !== active) ?? null);
  const coverage: Coverage = active && standby ? 'fullyCovered' : active ? 'degraded' : 'uncovered';
  const kind = kindOf(slug) as FeatureKind;
  const needs = COMPOSITE.has(kind) ? uses.get(slug) : undefined;
  return {
    featureSlug: slug,
    kind,
    active,
    standby,
    coverage,
    ...(needs ? { uses: [...needs] } : {}),
    ...(stored?.lastFailover ? { lastFailover: stored.lastFailover } : {}),
  };
}

/** The assignment after a failover: the standby becomes active, the best other live node standby. */
export function planFailover(
  crew: FeatureCrew,
  nodes: readonly CrewNode[],
  record: Omit<Failover, 'from' | 'to'>,
  uses: FeatureUses = NO_USES,
): Assignment | undefined {
  if (!crew.standby) return undefined;
  const active = crew.standby;
  const standby = ranked(crew.featureSlug, nodes, uses).find((id) => id !== active) ?? null;
  return { active, standby, lastFailover: { ...record, from: crew.active ?? '', to: active } };
}
