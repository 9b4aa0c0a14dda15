import type { AppDocument, AppInstallationDocument } from '../../schemas/documents/app';
import { errors } from '../../schemas/errors';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import type { AppCatalog } from './app-catalog';
import type { AppEffects } from './app-effects';
import { appView, installationView } from './app-views';

/**
 * Ratings of apps (docs/apps.md, "Ratings"): an account that has the app installed (not removed)
 * rates it 1-5; rating again replaces its rating. The app's sum, count and average change in one
 * pipeline update, so concurrent ratings by other accounts never leave the average behind.
 */
export class AppRatings {
  constructor(
    private readonly deps: {
      apps: Repository<AppDocument>;
      installations: Repository<AppInstallationDocument>;
      catalog: AppCatalog;
      effects: AppEffects;
      onChange?: () => void;
    },
  ) {}

  async rate(accountId: string, slug: string, stars: number) {
    const { apps, installations, catalog, effects } = this.deps;
    const app = await catalog.get(slug, accountId);
    const existing = await installations.findOne({ accountId, slug });
    if (!existing || existing.status === 'removed') {
      throw errors.forbidden(`Install ${slug} before rating it`, { slug, reason: 'not_installed' });
    }
    // Conditional on the rating read: two racing ratings by one account do not both count.
    const previous = existing.rating;
    const updated = await installations.findOneAndUpdate(
      { _id: existing._id, rating: previous === undefined ? { $exists: false } : previous },
      { $set: { rating: stars, updatedAt: effects.now() } },
    );
    if (!updated) throw errors.conflict('Your rating of this app changed meanwhile; try again');
    const sum = { $add: ['$ratingSum', stars - (previous ?? 0)] };
    const count = { $add: ['$ratingCount', previous === undefined ? 1 : 0] };
    await apps.raw
      .updateOne({ _id: slug }, [
        {
          $set: { ratingSum: { $ifNull: ['$ratingSum', 0] }, ratingCount: { $ifNull: ['$ratingCount', 0] } },
        },
        { $set: { ratingSum: sum, ratingCount: count } },
        { $set: { rating: { $round: [{ $divide: ['$ratingSum', '$ratingCount'] }, 2] } } },
      ])
      .catch((err: unknown) => {
        throw mapMongoError(err, { collection: apps.name, op: 'updateOne' });
      });
    await effects.activity(accountId, slug, 'rate', `Rated ${app.name} ${stars}/5`);
    this.deps.onChange?.();
    const fresh = (await apps.findById(slug)) ?? app;
    return {
      app: appView(fresh),
      installation: installationView(updated),
      rating: { stars, average: fresh.rating ?? null, count: fresh.ratingCount ?? 0 },
    };
  }
}
