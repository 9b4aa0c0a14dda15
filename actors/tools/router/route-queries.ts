import type { Principal } from '../../../schemas/auth';
import type {
  RoutePageDocument,
  RouteRecordDocument,
  RouteStatDocument,
} from '../../../schemas/documents/route-record';
import type { FfpRoutesResponse, RouteView } from '../../../schemas/http/mcp';
import type { Repository } from '../../../src/store/mongo';
import { newestFirst, recordsOf, type PagedRecord, type RouteRecordInput } from './route-pages';

/** Pages read at once while looking for an owner's latest records. */
const PAGES_PER_READ = 20;

type Owner = { agentId: string; accountId?: undefined } | { accountId: string; agentId?: undefined };

/** Reads for `GET /api/ffp/routes`. */
export class RouteQueries {
  constructor(
    private readonly pages: Repository<RoutePageDocument>,
    private readonly legacy: Repository<RouteRecordDocument>,
    private readonly stats: Repository<RouteStatDocument>,
  ) {}

  /**
   * The caller's latest routes and its per-primitive summary: an agent sees its own calls, an
   * account the calls of all its agents (its default agent included).
   */
  async forCaller(principal: Principal, limit: number): Promise<FfpRoutesResponse> {
    const owner: Owner | undefined =
      principal.subjectType === 'agent' && principal.agentId
        ? { agentId: principal.agentId }
        : principal.accountId
          ? { accountId: principal.accountId }
          : undefined;
    if (!owner) return { routes: [], primitives: [] };
    const ownerKey = owner.agentId !== undefined ? `agent:${owner.agentId}` : `account:${owner.accountId}`;
    const [paged, legacy, stats] = await Promise.all([
      this.latest(owner, limit),
      this.legacy.find(owner, { sort: { at: -1, _id: -1 }, limit }),
      this.stats.find({ ownerKey }, { sort: { executions: -1, primitive: 1 }, limit: 500 }),
    ]);
    // Records of the one-document-per-call format (before an upgrade) come after the pages' of the same ms.
    const records = [...paged, ...legacy.map((record) => ({ record, page: '', row: 0 }))]
      .sort(newestFirst)
      .slice(0, limit)
      .map((r) => viewOf(r.record));
    return {
      routes: records,
      primitives: stats.map((s) => ({
        primitive: s.primitive,
        executions: s.executions,
        fallbackCount: s.fallbackCount,
      })),
    };
  }

  /**
   * The owner's `limit` newest records in the pages. Pages are read newest first (by their newest
   * record); the pages of several processes overlap in time, so reading stops only at a page whose
   * newest record is older than the `limit`-th newest found so far.
   */
  private async latest(owner: Owner, limit: number): Promise<PagedRecord[]> {
    const filter =
      owner.agentId !== undefined ? { agentIds: owner.agentId } : { accountIds: owner.accountId };
    let found: PagedRecord[] = [];
    for (let skip = 0; ; skip += PAGES_PER_READ) {
      const pages = await this.pages.find(filter, {
        sort: { until: -1, _id: -1 },
        skip,
        limit: PAGES_PER_READ,
      });
      for (const page of pages) {
        if (found.length >= limit && page.until.getTime() < found[limit - 1].record.at.getTime())
          return found;
        found = [...found, ...recordsOf(page, owner)].sort(newestFirst).slice(0, limit);
      }
      if (pages.length < PAGES_PER_READ) return found;
    }
  }
}

/** The public view of a record: no internal ids. */
function viewOf(r: RouteRecordInput): RouteView {
  return {
    tool: r.tool,
    primitive: r.primitive,
    fallbackUsed: r.fallbackUsed,
    invokedByType: r.invokedByType,
    routeDecision: r.routeDecision,
    related: r.related,
    agentRef: r.agentRef,
    status: r.status,
    ...(r.errorCode ? { errorCode: r.errorCode } : {}),
    durationMs: r.durationMs,
    at: r.at.toISOString(),
  };
}
