import type { Filter, Sort } from 'mongodb';
import {
  SKILL_CATEGORIES,
  SkillDocumentSchema,
  type SkillCategory,
  type SkillDocument,
} from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import type { ListSkillsQuery, SkillSummary } from '../../schemas/http/skills';
import { mapMongoError, type Repository } from '../../src/store/mongo';
import { LISTING_PROJECTION, skillSummary, UNLISTED_FIELDS, type ListedSkill } from './skill-views';

/** How a listed document is parsed (the projection leaves the code and the example out). */
const ListedSkillSchema = SkillDocumentSchema.omit(
  Object.fromEntries(UNLISTED_FIELDS.map((f) => [f, true])) as {
    [K in (typeof UNLISTED_FIELDS)[number]]: true;
  },
);

const SORTS: Record<ListSkillsQuery['sort'], Sort> = {
  popular: { installCount: -1, slug: 1 },
  recent: { publishedAt: -1, slug: 1 },
  rating: { rating: -1, ratingCount: -1, slug: 1 },
  name: { nameKey: 1, slug: 1 },
};

/** A literal substring in a regular expression (search is taken literally, not as a pattern). */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How long a listing's total is reused, in ms. Counting is a second pass over the catalog per
 * listing (a third of its CPU at 1,000 skills); the total only moves when a skill is published or
 * the seed changes, so a total up to a second old is shown rather than counted again.
 */
export const COUNT_REUSE_MS = 1000;
/** Distinct filters whose totals are kept (searches included); the oldest go first. */
const MAX_COUNTS = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A discovery section: a titled row of skills. */
export interface DiscoverySection {
  id: string;
  title: string;
  skills: SkillSummary[];
}

/**
 * Reads of the catalog (docs/skills.md, "Listing"): listings by category, author and search,
 * sorted by a stat, paged; discovery rows; a skill by id or slug. Plain reads of the documents:
 * nothing here changes them.
 */
export class SkillCatalog {
  private readonly counts = new Map<string, { at: number; total: Promise<number> }>();

  constructor(
    private readonly skills: Repository<SkillDocument>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The number of skills `filter` matches, reused for `COUNT_REUSE_MS`. */
  private countOf(filter: Filter<SkillDocument>): Promise<number> {
    const key = JSON.stringify(filter);
    const at = this.now();
    const kept = this.counts.get(key);
    if (kept && at - kept.at < COUNT_REUSE_MS) return kept.total;
    const total = this.skills.count(filter);
    this.counts.delete(key);
    this.counts.set(key, { at, total });
    // A failed count is not kept: the next listing asks again.
    total.catch(() => {
      if (this.counts.get(key)?.total === total) this.counts.delete(key);
    });
    if (this.counts.size > MAX_COUNTS) this.counts.delete(this.counts.keys().next().value!);
    return total;
  }

  private async listed(
    filter: Filter<SkillDocument>,
    sort: Sort,
    skip: number,
    limit: number,
  ): Promise<ListedSkill[]> {
    const docs = await this.skills.raw
      .find(filter, { projection: LISTING_PROJECTION, sort, skip, limit })
      .toArray()
      .catch((err: unknown) => {
        throw mapMongoError(err, { collection: this.skills.name, op: 'find' });
      });
    return docs.map((d) => {
      const parsed = ListedSkillSchema.safeParse(d);
      if (!parsed.success) throw errors.internal(`corrupt document in skills (_id ${String(d._id)})`);
      return parsed.data as ListedSkill;
    });
  }

  /** `GET /api/skills`: `{skills, pagination: {page, limit, total}}`. */
  async list(
    query: ListSkillsQuery,
  ): Promise<{ skills: SkillSummary[]; pagination: { page: number; limit: number; total: number } }> {
    const filter: Filter<SkillDocument> = { listed: true };
    if (query.category) filter.category = query.category;
    if (query.author) filter.author = query.author;
    if (query.search) filter.searchText = { $regex: literal(query.search.toLowerCase()) };
    const skip = (query.page - 1) * query.limit;
    const [docs, total] = await Promise.all([
      this.listed(filter, SORTS[query.sort], skip, query.limit),
      this.countOf(filter),
    ]);
    return { skills: docs.map(skillSummary), pagination: { page: query.page, limit: query.limit, total } };
  }

  /** `GET /api/skills/discovery` without the caller's part: the rows and the categories. */
  async discovery(): Promise<{
    skills: SkillSummary[];
    categories: SkillCategory[];
    sections: DiscoverySection[];
  }> {
    const row = (filter: Filter<SkillDocument>, sort: Sort, limit: number) =>
      this.listed({ listed: true, ...filter }, sort, 0, limit).then((d) => d.map(skillSummary));
    const [popular, featured, recent, rated, ...byCategory] = await Promise.all([
      row({}, SORTS.popular, 50),
      row({ featured: true }, SORTS.popular, 12),
      row({}, SORTS.recent, 12),
      row({ rating: { $ne: null } }, SORTS.rating, 12),
      ...SKILL_CATEGORIES.map((category) => row({ category }, SORTS.popular, 6)),
    ]);
    const sections: DiscoverySection[] = [
      { id: 'featured', title: 'Featured', skills: featured },
      { id: 'popular', title: 'Popular', skills: popular.slice(0, 12) },
      { id: 'new', title: 'New and updated', skills: recent },
      ...(rated.length > 0 ? [{ id: 'top-rated', title: 'Top rated', skills: rated }] : []),
      ...SKILL_CATEGORIES.map((category, i) => ({
        id: `category:${category}`,
        title: category,
        skills: byCategory[i],
      })).filter((s) => s.skills.length > 0),
    ];
    const categories = SKILL_CATEGORIES.filter((_c, i) => byCategory[i].length > 0);
    return { skills: popular, categories, sections };
  }

  /** A listed skill by its skill_id or slug (drafts and unknown ones: NOT_FOUND). */
  async get(ref: string): Promise<SkillDocument> {
    const doc = await this.skills.findOne(UUID.test(ref) ? { _id: ref.toLowerCase() } : { slug: ref });
    if (!doc || !doc.listed)
      throw errors.notFound(`Skill not found: ${ref.slice(0, 100)}`, { skill: ref.slice(0, 100) });
    return doc;
  }

  /** Listed skills by slug (for dependencies and installations), in one read. */
  async bySlugs(slugs: readonly string[]): Promise<Map<string, SkillDocument>> {
    if (slugs.length === 0) return new Map();
    const docs = await this.skills.find({ slug: { $in: [...new Set(slugs)] }, listed: true }, { limit: 0 });
    return new Map(docs.map((d) => [d.slug, d]));
  }

  /** Every skill of an author, listed or not (its drafts and unlisted ones included), most installed first. */
  authoredBy(handle: string): Promise<ListedSkill[]> {
    return this.listed({ author: handle }, SORTS.popular, 0, 0);
  }

  /** Listed skills by id, as listings show them. */
  async listedByIds(ids: readonly string[]): Promise<Map<string, ListedSkill>> {
    if (ids.length === 0) return new Map();
    const docs = await this.listed({ _id: { $in: [...new Set(ids)] } }, { slug: 1 }, 0, 0);
    return new Map(docs.map((d) => [d._id, d]));
  }
}
