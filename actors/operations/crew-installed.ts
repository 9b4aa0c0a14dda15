import type { Logger } from '../../src/logging/logger';
import type { FeatureUses } from './crew-plan';

/** What the crew reads its skill and app features from (installed-features.ts, wired at boot). */
export type InstalledFeaturesSource = () => Promise<{
  features: ReadonlyArray<{ featureSlug: string; uses: readonly string[] }>;
  truncated: boolean;
}>;

/**
 * The installed skills and apps the crew shows as features, kept between heartbeats: read again
 * on a heartbeat at most every `refreshMs` (one aggregation per installations collection), so a
 * crew read costs nothing more. A failed read keeps the last list (a store blip must not make
 * every skill vanish from the crew) and is logged.
 */
export class InstalledFeatures {
  private uses: FeatureUses = new Map();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  private warnedTruncated = false;

  constructor(
    private readonly source: InstalledFeaturesSource | undefined,
    private readonly refreshMs: number,
    private readonly logger: Logger,
  ) {}

  /** The runtime functions of each installed skill and app, by feature slug, as last read. */
  current(): FeatureUses {
    return this.uses;
  }

  /** Reads them again when the last read is older than `refreshMs` (or always with `force`). */
  refresh(force = false): Promise<void> {
    if (!this.source) return Promise.resolve();
    if (!force && Date.now() - this.loadedAt < this.refreshMs) return Promise.resolve();
    return (this.loading ??= this.load(this.source).finally(() => {
      this.loading = undefined;
    }));
  }

  private async load(source: InstalledFeaturesSource): Promise<void> {
    try {
      const { features, truncated } = await source();
      this.uses = new Map(features.map((f) => [f.featureSlug, [...f.uses]]));
      this.loadedAt = Date.now();
      if (truncated && !this.warnedTruncated) {
        this.warnedTruncated = true;
        this.logger.warn('crew: more skills or apps are installed than the crew shows as features');
      }
    } catch (err) {
      this.logger.warn({ err }, 'crew: the installed skills and apps could not be read');
    }
  }
}
