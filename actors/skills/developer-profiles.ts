import type { DeveloperDocument, SkillInstallationDocument } from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import type { SkillSummary } from '../../schemas/http/skills';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import type { SkillCatalog } from './skill-catalog';
import { skillSummary } from './skill-views';

/**
 * What the app store adds to a developer's profile (the profile is shared with it). Until the
 * app store provides one, a developer has no apps (`noApps`).
 */
export interface DeveloperAppsSource {
  /**
   * `downloads`: package downloads and installs of the developer's apps (absent = 0);
   * `activeAccounts`: the accounts that opened or used one of its apps in the last 30 days.
   */
  appsOf(
    handle: string,
  ): Promise<{ published: number; apps: unknown[]; downloads?: number; activeAccounts?: readonly string[] }>;
}

export const noApps: DeveloperAppsSource = { appsOf: async () => ({ published: 0, apps: [] }) };

/** `GET /api/developers/{handle}`. */
export interface DeveloperProfile {
  developer: {
    handle: string;
    displayName: string;
    kind: DeveloperDocument['kind'];
    since: string;
    appsPublished: number;
    skillsPublished: number;
    apps: unknown[];
    skills: SkillSummary[];
    /** Accounts that keep at least one of its skills installed and active. */
    followers: number;
    /**
     * Installations of its skills, ever (a removed one installed again counts again), plus its
     * apps' package downloads and installs.
     */
    downloads: number;
    /** Accounts that used one of its skills, or opened or used one of its apps, in the last 30 days. */
    activeUsers: number;
  };
}

const ACTIVE_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** Developer profiles from real counts (docs/skills.md, "Developers"). Plain reads. */
export class DeveloperProfiles {
  constructor(
    private readonly deps: {
      developers: Repository<DeveloperDocument>;
      catalog: SkillCatalog;
      installations: Repository<SkillInstallationDocument>;
      apps?: DeveloperAppsSource;
      now?: () => Date;
    },
  ) {}

  async profile(handle: string): Promise<DeveloperProfile> {
    const { developers, catalog, installations } = this.deps;
    const developer = await developers.findById(handle);
    if (!developer) throw errors.notFound(`No developer with the handle ${handle}`, { handle });
    const docs = await catalog.authoredBy(handle);
    const ids = docs.map((d) => d._id);
    const since = new Date((this.deps.now?.() ?? new Date()).getTime() - ACTIVE_WINDOW_MS);
    const distinct = (filter: object) =>
      ids.length === 0
        ? Promise.resolve([] as unknown[])
        : installations.raw
            .distinct('accountId', { skillId: { $in: ids }, ...filter })
            .catch((err: unknown) => {
              throw mapMongoError(err, { collection: installations.name, op: 'distinct' });
            });
    const [followers, active, apps] = await Promise.all([
      distinct({ status: 'active' }),
      distinct({ lastUsedAt: { $gte: since } }),
      (this.deps.apps ?? noApps).appsOf(handle),
    ]);
    const listed = docs.filter((d) => d.listed);
    return {
      developer: {
        handle: developer._id,
        displayName: developer.displayName,
        kind: developer.kind,
        since: developer.createdAt.toISOString(),
        appsPublished: apps.published,
        skillsPublished: listed.length,
        apps: apps.apps,
        skills: listed.map(skillSummary),
        followers: followers.length,
        downloads: docs.reduce((n, d) => n + d.installCount, 0) + (apps.downloads ?? 0),
        activeUsers: new Set([...(active as string[]), ...(apps.activeAccounts ?? [])]).size,
      },
    };
  }
}
