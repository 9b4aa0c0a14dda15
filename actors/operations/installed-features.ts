import type { Document } from 'mongodb';
import { appInstallationsCollection, appsCollection } from '../apps/apps.collection';
import { skillInstallationsCollection, skillsCollection } from '../skills/skills.collection';
import type { DocumentStore } from '../../src/store/mongo';

/**
 * The installed catalog skills and apps as crew features (docs/operations.md, "The crew"), each
 * with the runtime functions it uses. Read from the installations: the distinct slugs installed
 * (active) by any account, at most `max` of each, then the skills' and apps' own declarations.
 */

/** One installed skill or app: `skill:<slug>` or `app:<slug>`, and the runtime functions it uses. */
export interface InstalledFeature {
  featureSlug: string;
  uses: string[];
}

/** At most this many skills and this many apps become features (the rest are left out, logged). */
export const MAX_INSTALLED_FEATURES = 500;

/** The runtime functions of the crew (crew-plan.ts): what a node offers. */
const SANDBOX = 'sandbox';
const EGRESS = 'http-egress';
const CONNECTORS = 'connectors';

/**
 * A skill's capabilities run in the sandbox; `net` lets their code call out over HTTP (the
 * `net_*` primitives through the egress), `mcp` call the account's connector tools. The other
 * permissions (`mem`, `fs`, `db`, `events`) reach the stores every node has.
 */
export function skillUses(permissions: readonly string[]): string[] {
  const uses = new Set([SANDBOX]);
  if (permissions.includes('net')) uses.add(EGRESS);
  if (permissions.includes('mcp')) uses.add(CONNECTORS);
  return [...uses].sort();
}

/** What one of an app's permissions or primitives needs: `net…` egress, `mcp…`/`connector…` connectors, `proc…` the sandbox. */
function useOfName(name: string): string | undefined {
  const head = name.split(/[:._]/)[0];
  if (head === 'net' || head === 'http') return EGRESS;
  if (head === 'mcp' || head === 'connector' || head === 'connectors') return CONNECTORS;
  if (head === 'proc' || head === 'sandbox') return SANDBOX;
  return undefined;
}

/**
 * An app (its latest version's manifest) uses what its skills use, plus what its permissions and
 * primitives name (`net` → egress, `mcp` → connectors, `proc_execute` → the sandbox). A skill it
 * names that the catalog does not have counts as the sandbox (a capability runs there).
 */
export function appUses(
  manifest: {
    skills: readonly string[];
    requiredSkills: readonly string[];
    permissions: readonly string[];
    primitives: readonly string[];
  },
  skillPermissions: ReadonlyMap<string, readonly string[]>,
): string[] {
  const uses = new Set<string>();
  for (const slug of new Set([...manifest.skills, ...manifest.requiredSkills])) {
    for (const u of skillUses(skillPermissions.get(slug) ?? [])) uses.add(u);
  }
  for (const name of [...manifest.permissions, ...manifest.primitives]) {
    const u = useOfName(name);
    if (u) uses.add(u);
  }
  return [...uses].sort();
}

/** The distinct slugs of active installations, first `max` in slug order (one aggregation). */
async function installedSlugs(
  raw: { aggregate(pipeline: Document[]): { toArray(): Promise<Document[]> } },
  max: number,
): Promise<string[]> {
  const rows = await raw
    .aggregate([
      { $match: { status: 'active' } },
      { $group: { _id: '$slug' } },
      { $sort: { _id: 1 } },
      { $limit: max },
    ])
    .toArray();
  return rows.map((r) => String(r._id));
}

/**
 * The source the crew reads its skill and app features from (wired in src/boot/build-services.ts).
 * Resolves them with `truncated` when more than `max` skills or apps are installed.
 */
export function createInstalledFeatures(
  documents: Pick<DocumentStore, 'repository'>,
  max = MAX_INSTALLED_FEATURES,
): () => Promise<{ features: InstalledFeature[]; truncated: boolean }> {
  const skills = documents.repository(skillsCollection);
  const skillInstalls = documents.repository(skillInstallationsCollection);
  const apps = documents.repository(appsCollection);
  const appInstalls = documents.repository(appInstallationsCollection);
  const permissionsOf = async (slugs: readonly string[]) => {
    if (slugs.length === 0) return new Map<string, string[]>();
    const docs = await skills.raw
      .find({ slug: { $in: [...slugs] } }, { projection: { slug: 1, permissions_required: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d.slug, d.permissions_required ?? []]));
  };
  return async () => {
    // One more than `max` says whether some were left out.
    const [skillSlugs, appSlugs] = await Promise.all([
      installedSlugs(skillInstalls.raw, max + 1),
      installedSlugs(appInstalls.raw, max + 1),
    ]);
    const truncated = skillSlugs.length > max || appSlugs.length > max;
    skillSlugs.splice(max);
    appSlugs.splice(max);
    const appDocs = appSlugs.length
      ? await apps.raw
          .find({ _id: { $in: appSlugs } }, { projection: { latestVersion: 1, versions: 1 } })
          .toArray()
      : [];
    const manifests = appDocs.flatMap((a) => {
      const latest = a.versions?.find((v) => v.version === a.latestVersion) ?? a.versions?.at(-1);
      return latest ? [{ slug: a._id, manifest: latest.manifest }] : [];
    });
    const named = new Set(skillSlugs);
    for (const { manifest } of manifests)
      for (const s of [...manifest.skills, ...manifest.requiredSkills]) named.add(s);
    const permissions = await permissionsOf([...named]);
    const features: InstalledFeature[] = [
      ...skillSlugs.map((slug) => ({
        featureSlug: `skill:${slug}`,
        uses: skillUses(permissions.get(slug) ?? []),
      })),
      ...manifests.map(({ slug, manifest }) => ({
        featureSlug: `app:${slug}`,
        uses: appUses(manifest, permissions),
      })),
    ];
    return { features, truncated };
  };
}
