import type { Filter, Sort } from 'mongodb';
import { APP_CATEGORIES, type AppDocument, type AppInstallationDocument } from '../../schemas/documents/app';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import { appSummary, type AppSummary } from './app-views';

const ROW = 8;
const TRENDING_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** Most-installed-this-week slugs looked at for the trending row (some may be unpublished). */
const TRENDING_CANDIDATES = 50;
/**
 * How long the rows shared by every caller are reused, in ms. Changes made through this process
 * (publish, install, update, rating) drop them at once (`invalidate`); another process's changes
 * show within this bound.
 */
export const DISCOVERY_REUSE_MS = 1000;

const POPULAR: Sort = { installCount: -1, _id: 1 };

export interface DiscoverySection {
  id: string;
  title: string;
  apps: AppSummary[];
  developer?: string;
}

interface SharedRows {
  featured: AppSummary[];
  trending: AppSummary[];
  newReleases: AppSummary[];
  recentlyUpdated: AppSummary[];
  topInstalled: AppSummary[];
  byCategory: { category: string; apps: AppSummary[] }[];
  spotlight: { developer: string; apps: AppSummary[] } | null;
}

/**
 * `GET /api/apps/discovery` (docs/apps.md, "Discovery"): every section computed from published
 * apps and installations, nothing curated by hand. Each row is its own bounded query (at most
 * `ROW` apps, on the `apps` indexes); the rows every caller shares are reused for
 * `DISCOVERY_REUSE_MS`; only `recommended` and `installedSlugs` are the caller's.
 */
export class AppDiscovery {
  private shared: { at: number; rows: Promise<SharedRows> } | undefined;

  constructor(
    private readonly deps: {
      apps: Repository<AppDocument>;
      installations: Repository<AppInstallationDocument>;
      now?: () => Date;
    },
  ) {}

  private nowMs(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }

  /** Drops the reused rows (a change made through this process). */
  invalidate(): void {
    this.shared = undefined;
  }

  private row(filter: Filter<AppDocument>, sort: Sort): Promise<AppSummary[]> {
    return this.deps.apps
      .find({ published: true, ...filter }, { sort, limit: ROW })
      .then((docs) => docs.map(appSummary));
  }

  private async trending(): Promise<AppSummary[]> {
    const since = new Date(this.nowMs() - TRENDING_WINDOW_MS);
    const { installations } = this.deps;
    const counts = await installations.raw
      .aggregate<{ _id: string; count: number }>([
        { $match: { installedAt: { $gte: since } } },
        { $group: { _id: '$slug', count: { $sum: 1 } } },
        { $sort: { count: -1, _id: 1 } },
        { $limit: TRENDING_CANDIDATES },
      ])
      .toArray()
      .catch((err: unknown) => {
        throw mapMongoError(err, { collection: installations.name, op: 'aggregate' });
      });
    if (counts.length === 0) return [];
    const docs = await this.deps.apps.find(
      { published: true, _id: { $in: counts.map((c) => c._id) } },
      { limit: TRENDING_CANDIDATES },
    );
    const bySlug = new Map(docs.map((d) => [d._id, d]));
    return counts.flatMap((c) => (bySlug.has(c._id) ? [appSummary(bySlug.get(c._id)!)] : [])).slice(0, ROW);
  }

  private async spotlight(): Promise<SharedRows['spotlight']> {
    const { apps } = this.deps;
    const [top] = await apps.raw
      .aggregate<{ _id: string; installs: number }>([
        { $match: { published: true } },
        { $group: { _id: '$developer', installs: { $sum: '$installCount' } } },
        { $sort: { installs: -1, _id: 1 } },
        { $limit: 1 },
      ])
      .toArray()
      .catch((err: unknown) => {
        throw mapMongoError(err, { collection: apps.name, op: 'aggregate' });
      });
    return top ? { developer: top._id, apps: await this.row({ developer: top._id }, POPULAR) } : null;
  }

  private async computeShared(): Promise<SharedRows> {
    const [featured, trending, newReleases, recentlyUpdated, topInstalled, spotlight, ...rows] =
      await Promise.all([
        this.row({ $or: [{ installCount: { $gt: 0 } }, { 'versions.1': { $exists: true } }] }, POPULAR),
        this.trending(),
        this.row({}, { createdAt: -1, _id: 1 }),
        this.row({ 'versions.1': { $exists: true } }, { updatedAt: -1, _id: 1 }),
        this.row({}, POPULAR),
        this.spotlight(),
        ...APP_CATEGORIES.map((category) => this.row({ category }, POPULAR)),
      ]);
    const byCategory = APP_CATEGORIES.map((category, i) => ({ category, apps: rows[i] }))
      .filter((c) => c.apps.length > 0)
      .sort((a, b) => a.category.localeCompare(b.category));
    return { featured, trending, newReleases, recentlyUpdated, topInstalled, byCategory, spotlight };
  }

  private sharedRows(): Promise<SharedRows> {
    const at = this.nowMs();
    if (this.shared && at - this.shared.at < DISCOVERY_REUSE_MS) return this.shared.rows;
    const rows = this.computeShared();
    const kept = { at, rows };
    this.shared = kept;
    // A failed computation is not reused: the next call asks again.
    rows.catch(() => {
      if (this.shared === kept) this.shared = undefined;
    });
    return rows;
  }

  async discovery(viewerAccountId?: string) {
    const [shared, mine] = await Promise.all([
      this.sharedRows(),
      viewerAccountId
        ? this.deps.installations.find(
            { accountId: viewerAccountId, status: { $ne: 'removed' } },
            { limit: 0 },
          )
        : Promise.resolve([]),
    ]);
    const installedSlugs = mine.map((i) => i.slug).sort();
    // Without installations the recommended row is the top-installed one (already shared);
    // with some, the rest of the categories of the caller's apps, most installed first.
    let recommended = shared.topInstalled;
    if (installedSlugs.length > 0) {
      const myCategories = [
        ...new Set(
          (await this.deps.apps.find({ _id: { $in: installedSlugs }, published: true }, { limit: 0 })).map(
            (a) => a.category,
          ),
        ),
      ];
      recommended = await this.row(
        {
          _id: { $nin: installedSlugs },
          ...(myCategories.length > 0 ? { category: { $in: myCategories } } : {}),
        },
        POPULAR,
      );
    }
    const sections: DiscoverySection[] = [
      { id: 'featured', title: 'Featured', apps: shared.featured },
      { id: 'trending', title: 'Trending this week', apps: shared.trending },
      { id: 'recommended', title: 'Recommended for you', apps: recommended },
      { id: 'new-releases', title: 'New releases', apps: shared.newReleases },
      { id: 'recently-updated', title: 'Recently updated', apps: shared.recentlyUpdated },
      { id: 'top-installed', title: 'Top installed', apps: shared.topInstalled },
      ...shared.byCategory.map((c) => ({ id: `category:${c.category}`, title: c.category, apps: c.apps })),
      ...(shared.spotlight
        ? [
            {
              id: 'developer-spotlight',
              title: 'Developer spotlight',
              developer: shared.spotlight.developer,
              apps: shared.spotlight.apps,
            },
          ]
        : []),
    ];
    return {
      apps: shared.topInstalled,
      installedSlugs,
      categories: shared.byCategory.map((c) => c.category),
      sections,
      hero: shared.featured[0] ?? shared.topInstalled[0] ?? null,
    };
  }
}
