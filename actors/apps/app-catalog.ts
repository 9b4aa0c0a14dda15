import { randomBytes } from 'node:crypto';
import type { Filter } from 'mongodb';
import type { AccountDocument } from '../../schemas/documents/account';
import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import type { DeveloperDocument } from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import type { ListAppsQuery, PublishAppBody } from '../../schemas/http/apps';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';
import type { DeveloperAppsSource } from '../skills/developer-profiles';
import { appSummary, appView, compareVersions, latestOf, type AppSummary, type AppView } from './app-views';
import { assertNoSecrets } from './config-secrets';

export interface AppCatalogDeps {
  apps: Repository<AppDocument>;
  developers: Repository<DeveloperDocument>;
  accounts: Repository<AccountDocument>;
  /** Read for developer profiles' active users. */
  installations?: Repository<AppInstallationDocument>;
  /** Called after a publication (discovery drops its cached rows). */
  onChange?: () => void;
  now?: () => Date;
}

const ACTIVE_WINDOW_MS = 30 * 24 * 3600 * 1000;

const SORTS: Record<ListAppsQuery['sort'], Record<string, 1 | -1>> = {
  popular: { installCount: -1, _id: 1 },
  recent: { updatedAt: -1, _id: 1 },
  rating: { rating: -1, ratingCount: -1, _id: 1 },
  name: { nameKey: 1, _id: 1 },
};

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A slug from a name: lower case, dashes, 3-64 characters. */
function slugFrom(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/g, '');
  return base.length >= 3 ? base : `app-${randomBytes(3).toString('hex')}`;
}

/**
 * The app catalog (docs/apps.md): publications by enterprise accounts, with every version kept,
 * and the public reads. An unpublished app is visible to its owner only, everywhere.
 */
export class AppCatalog implements DeveloperAppsSource {
  constructor(private readonly deps: AppCatalogDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The account's developer handle, made on its first publication (shared with the skill store). */
  private async developerOf(account: AccountDocument): Promise<string> {
    const { developers } = this.deps;
    const existing = await developers.findOne({ accountId: account._id });
    if (existing) return existing._id;
    const base = slugFrom(account.agentName ?? 'developer')
      .slice(0, 30)
      .replace(/-+$/g, '');
    for (const handle of [
      base,
      `${base}-${randomBytes(2).toString('hex')}`,
      `${base}-${randomBytes(3).toString('hex')}`,
    ]) {
      const doc: DeveloperDocument = {
        _id: handle.length >= 3 ? handle : `dev-${randomBytes(3).toString('hex')}`,
        kind: 'enterprise',
        accountId: account._id,
        displayName: (account.agentName ?? 'Developer').slice(0, 100),
        createdAt: this.now(),
      };
      if (await developers.insertIfAbsent(doc)) return doc._id;
      // Another publication of the same account may have made it meanwhile.
      const raced = await developers.findOne({ accountId: account._id });
      if (raced) return raced._id;
    }
    throw errors.conflict('No free developer handle could be made for this account; try again');
  }

  /**
   * `POST /api/apps`: a new app (created: true), or a new version of one the account owns (a
   * greater `manifest.version`; created: false). Everything of the app is replaced by the new
   * publication except its slug, owner, stats and older versions, which are kept.
   */
  async publish(accountId: string, body: PublishAppBody): Promise<{ app: AppView; created: boolean }> {
    const { apps, accounts } = this.deps;
    const account = await accounts.findById(accountId);
    if (!account) throw errors.notFound('Account not found');
    const capability = body.published ? 'publish_app' : 'create_app';
    if (!planHas(account.plan, capability))
      throw errors.forbidden(capabilityRequired(capability), { capability });
    assertNoSecrets(body.defaultConfig);
    const slug = body.slug ?? slugFrom(body.name);
    const now = this.now();
    const version = {
      version: body.manifest.version,
      manifest: body.manifest,
      defaultConfig: body.defaultConfig,
      releaseNotes: body.releaseNotes,
      publishedAt: now,
    };
    const fields = {
      name: body.name,
      nameKey: body.name.toLowerCase(),
      category: body.category,
      description: body.description,
      deviceTargets: body.deviceTargets,
      published: body.published,
      latestVersion: version.version,
      updatedAt: now,
    };
    const existing = await apps.findById(slug);
    if (!existing) {
      const doc: AppDocument = {
        _id: slug,
        ...fields,
        ownerAccountId: accountId,
        developer: await this.developerOf(account),
        versions: [version],
        installCount: 0,
        downloadCount: 0,
        rating: null,
        ratingCount: 0,
        ratingSum: 0,
        source: 'published',
        createdAt: now,
      };
      if (await apps.insertIfAbsent(doc)) {
        this.deps.onChange?.();
        return { app: appView(doc), created: true };
      }
      // A racing publication of the same slug won: fall through to the owner/version checks.
    }
    const current = existing ?? (await apps.getById(slug));
    if (current.ownerAccountId !== accountId) {
      throw errors.conflict(`The slug ${slug} is taken`, { field: 'slug' });
    }
    if (compareVersions(version.version, current.latestVersion) <= 0) {
      throw errors.conflict(
        `manifest.version ${version.version} must be greater than the latest version ${current.latestVersion}`,
        { field: 'manifest.version', latestVersion: current.latestVersion },
      );
    }
    // Conditional on the latest version seen, so two racing publications do not both land.
    const updated = await apps.findOneAndUpdate(
      { _id: slug, latestVersion: current.latestVersion },
      { $set: fields, $push: { versions: version } },
    );
    if (!updated) throw errors.conflict('Another version of this app was published meanwhile; try again');
    this.deps.onChange?.();
    return { app: appView(updated), created: false };
  }

  /** The app as `viewer` may see it: 404 when absent or unpublished and not the viewer's own. */
  async get(slug: string, viewerAccountId?: string): Promise<AppDocument> {
    const doc = await this.deps.apps.findById(slug);
    if (!doc || (!doc.published && doc.ownerAccountId !== viewerAccountId)) {
      throw errors.notFound(`No app with the slug ${slug}`, { slug });
    }
    return doc;
  }

  /** `GET /api/apps`: published apps only. */
  async list(query: ListAppsQuery): Promise<{
    apps: AppSummary[];
    categories: { name: string; count: number }[];
    pagination: { total: number; page: number; limit: number };
  }> {
    const { apps } = this.deps;
    const filter: Filter<AppDocument> = { published: true };
    if (query.category) filter.category = query.category;
    if (query.search) {
      const re = new RegExp(escapeRegex(query.search), 'i');
      filter.$or = [{ name: re }, { description: re }, { _id: re }];
    }
    const [docs, total, categories] = await Promise.all([
      apps.find(filter, {
        sort: SORTS[query.sort],
        skip: (query.page - 1) * query.limit,
        limit: query.limit,
      }),
      apps.count(filter),
      apps.raw
        .aggregate<{ _id: string; count: number }>([
          { $match: { published: true } },
          { $group: { _id: '$category', count: { $sum: 1 } } },
          { $sort: { _id: 1 } },
        ])
        .toArray()
        .catch((err: unknown) => {
          throw mapMongoError(err, { collection: apps.name, op: 'aggregate' });
        }),
    ]);
    return {
      apps: docs.map(appSummary),
      categories: categories.map((c) => ({ name: c._id, count: c.count })),
      pagination: { total, page: query.page, limit: query.limit },
    };
  }

  /** `GET /api/apps/{slug}/download`: the package of the latest version; counts a download. */
  async download(slug: string, viewerAccountId?: string) {
    const doc = await this.get(slug, viewerAccountId);
    await this.deps.apps.updateOne({ _id: slug }, { $inc: { downloadCount: 1 } });
    const latest = latestOf(doc);
    return {
      schema: 'platform.app.v1' as const,
      app: appSummary(doc),
      manifest: latest.manifest,
      defaultConfig: latest.defaultConfig,
    };
  }

  /**
   * The developer profile's apps: published ones, most installed first; their downloads and
   * installs; the accounts that opened or used one of them in the last 30 days (`activeAccounts`,
   * merged with the skills' users by the profile).
   */
  async appsOf(handle: string) {
    const docs = await this.deps.apps.find(
      { developer: handle, published: true },
      { sort: { installCount: -1, _id: 1 }, limit: 0 },
    );
    const downloads = docs.reduce((n, d) => n + d.downloadCount + d.installCount, 0);
    const { installations } = this.deps;
    const since = new Date(this.now().getTime() - ACTIVE_WINDOW_MS);
    const activeAccounts =
      installations && docs.length > 0
        ? ((await installations.raw
            .distinct('accountId', { slug: { $in: docs.map((d) => d._id) }, lastActiveAt: { $gte: since } })
            .catch((err: unknown) => {
              throw mapMongoError(err, { collection: installations.name, op: 'distinct' });
            })) as string[])
        : [];
    return { published: docs.length, apps: docs.map(appSummary), downloads, activeAccounts };
  }
}
