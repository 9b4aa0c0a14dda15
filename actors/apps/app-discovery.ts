import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import { appSummary, type AppSummary } from './app-views';

const ROW = 8;
const TRENDING_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * `GET /api/apps/discovery` (docs/apps.md, "Discovery"): every section computed from published
 * apps and installations, nothing curated by hand.
 */
export class AppDiscovery {
  constructor(
    private readonly deps: {
      apps: Repository<AppDocument>;
      installations: Repository<AppInstallationDocument>;
      now?: () => Date;
    },
  ) {}

  async discovery(viewerAccountId?: string) {
    const { apps, installations } = this.deps;
    const published = await apps.find({ published: true }, { sort: { installCount: -1, _id: 1 }, limit: 0 });
    const since = new Date((this.deps.now?.() ?? new Date()).getTime() - TRENDING_WINDOW_MS);
    const [recent, mine] = await Promise.all([
      installations.raw
        .aggregate<{ _id: string; count: number }>([
          { $match: { installedAt: { $gte: since } } },
          { $group: { _id: '$slug', count: { $sum: 1 } } },
        ])
        .toArray()
        .catch((err: unknown) => {
          throw mapMongoError(err, { collection: installations.name, op: 'aggregate' });
        }),
      viewerAccountId
        ? installations.find({ accountId: viewerAccountId, status: { $ne: 'removed' } }, { limit: 0 })
        : Promise.resolve([]),
    ]);
    const rows = (docs: AppDocument[]) => docs.slice(0, ROW).map(appSummary);
    const by = (key: (d: AppDocument) => number) => [...published].sort((a, b) => key(b) - key(a));
    const installsThisWeek = new Map(recent.map((r) => [r._id, r.count]));
    const installedSlugs = mine.map((i) => i.slug).sort();
    const installed = new Set(installedSlugs);
    const myCategories = new Set(published.filter((a) => installed.has(a._id)).map((a) => a.category));
    const categories = [...new Set(published.map((a) => a.category))].sort();
    const byDeveloper = new Map<string, number>();
    for (const a of published)
      byDeveloper.set(a.developer, (byDeveloper.get(a.developer) ?? 0) + a.installCount);
    const spotlight = [...byDeveloper.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    const featured = rows(published.filter((a) => a.versions.length > 1 || a.installCount > 0));
    const sections: { id: string; title: string; apps: AppSummary[]; developer?: string }[] = [
      { id: 'featured', title: 'Featured', apps: featured },
      {
        id: 'trending',
        title: 'Trending this week',
        apps: rows(by((a) => installsThisWeek.get(a._id) ?? 0).filter((a) => installsThisWeek.has(a._id))),
      },
      {
        id: 'recommended',
        title: 'Recommended for you',
        apps: rows(
          published.filter(
            (a) => !installed.has(a._id) && (myCategories.size === 0 || myCategories.has(a.category)),
          ),
        ),
      },
      { id: 'new-releases', title: 'New releases', apps: rows(by((a) => a.createdAt.getTime())) },
      {
        id: 'recently-updated',
        title: 'Recently updated',
        apps: rows(by((a) => a.updatedAt.getTime()).filter((a) => a.versions.length > 1)),
      },
      { id: 'top-installed', title: 'Top installed', apps: rows(published) },
      ...categories.map((c) => ({
        id: `category:${c}`,
        title: c,
        apps: rows(published.filter((a) => a.category === c)),
      })),
      ...(spotlight
        ? [
            {
              id: 'developer-spotlight',
              title: 'Developer spotlight',
              developer: spotlight[0],
              apps: rows(published.filter((a) => a.developer === spotlight[0])),
            },
          ]
        : []),
    ];
    return {
      apps: rows(published),
      installedSlugs,
      categories,
      sections,
      hero: featured[0] ?? (published[0] ? appSummary(published[0]) : null),
    };
  }
}
