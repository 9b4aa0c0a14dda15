import type { RoutePageDocument, RouteRecordDocument } from '../../../schemas/documents/route-record';

/** A route record before it is stored (the recorder's input). */
export type RouteRecordInput = Omit<RouteRecordDocument, '_id'>;

/** A record read back from a page, with where it was: the order of records recorded at the same ms. */
export interface PagedRecord {
  record: RouteRecordInput;
  page: string;
  row: number;
}

type Rows = RoutePageDocument['rows'];

/**
 * One page of route records (`RoutePageDocumentSchema`): the records as columns, in the order
 * given, each distinct string stored once. `records` must not be empty.
 */
export function encodeRoutePage(id: string, records: readonly RouteRecordInput[]): RoutePageDocument {
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const ref = (value: string): number => {
    let i = indexes.get(value);
    if (i === undefined) {
      i = strings.length;
      strings.push(value);
      indexes.set(value, i);
    }
    return i;
  };
  const agentIds = new Set<string>();
  const accountIds = new Set<string>();
  let from = Infinity;
  let until = -Infinity;
  for (const r of records) {
    const t = r.at.getTime();
    if (t < from) from = t;
    if (t > until) until = t;
  }
  const rows: Rows = {
    tool: [],
    primitive: [],
    invokedByType: [],
    source: [],
    agentId: [],
    agentRef: [],
    accountId: [],
    status: [],
    errorCode: [],
    fallbackUsed: [],
    durationMs: [],
    at: [],
  };
  let related: Rows['related'];
  records.forEach((r, i) => {
    rows.tool.push(ref(r.tool));
    rows.primitive.push(ref(r.primitive));
    rows.invokedByType.push(ref(r.invokedByType));
    rows.source.push(ref(r.routeDecision.source));
    rows.agentId.push(ref(r.agentId));
    rows.agentRef.push(ref(r.agentRef));
    rows.accountId.push(r.accountId === undefined ? -1 : ref(r.accountId));
    rows.status.push(ref(r.status));
    rows.errorCode.push(r.errorCode === undefined ? -1 : ref(r.errorCode));
    rows.fallbackUsed.push(r.fallbackUsed);
    rows.durationMs.push(r.durationMs);
    rows.at.push(r.at.getTime() - from);
    agentIds.add(r.agentId);
    if (r.accountId !== undefined) accountIds.add(r.accountId);
    const { apps, workflows, skills } = r.related;
    if (apps.length > 0 || workflows.length > 0 || skills.length > 0) {
      // The column appears with the first record that names something; earlier ones name nothing.
      related ??= new Array<null>(i).fill(null);
      related.push(r.related);
    } else related?.push(null);
  });
  if (related) rows.related = related;
  return {
    _id: id,
    from: new Date(from),
    until: new Date(until),
    agentIds: [...agentIds],
    accountIds: [...accountIds],
    strings,
    rows,
  };
}

const NO_RELATED: RouteRecordInput['related'] = Object.freeze({
  apps: [],
  workflows: [],
  skills: [],
}) as unknown as RouteRecordInput['related'];

/**
 * The records of a page made by one owner, `agentId` or `accountId` (both: the ones matching
 * both). Values are those written; the caller checks what it shows (`RouteViewSchema`).
 */
export function recordsOf(
  page: RoutePageDocument,
  owner: { agentId?: string; accountId?: string },
): PagedRecord[] {
  const { strings, rows } = page;
  const agent = owner.agentId === undefined ? undefined : strings.indexOf(owner.agentId);
  const account = owner.accountId === undefined ? undefined : strings.indexOf(owner.accountId);
  const out: PagedRecord[] = [];
  if (agent === -1 || account === -1) return out;
  const from = page.from.getTime();
  for (let i = 0; i < rows.tool.length; i++) {
    if (agent !== undefined && rows.agentId[i] !== agent) continue;
    if (account !== undefined && rows.accountId[i] !== account) continue;
    const errorCode = rows.errorCode[i];
    const accountId = rows.accountId[i];
    const record: RouteRecordInput = {
      tool: strings[rows.tool[i]],
      primitive: strings[rows.primitive[i]],
      fallbackUsed: rows.fallbackUsed[i],
      invokedByType: strings[rows.invokedByType[i]] as RouteRecordInput['invokedByType'],
      routeDecision: { source: strings[rows.source[i]] as RouteRecordInput['routeDecision']['source'] },
      related: rows.related?.[i] ?? NO_RELATED,
      agentRef: strings[rows.agentRef[i]],
      agentId: strings[rows.agentId[i]],
      ...(accountId >= 0 ? { accountId: strings[accountId] } : {}),
      status: strings[rows.status[i]] as RouteRecordInput['status'],
      ...(errorCode >= 0 ? { errorCode: strings[errorCode] } : {}),
      durationMs: rows.durationMs[i],
      at: new Date(from + rows.at[i]),
    };
    out.push({ record, page: page._id, row: i });
  }
  return out;
}

/** Newest first; records of the same millisecond by page id, then by row, both descending. */
export function newestFirst(a: PagedRecord, b: PagedRecord): number {
  return (
    b.record.at.getTime() - a.record.at.getTime() ||
    (a.page < b.page ? 1 : a.page > b.page ? -1 : 0) ||
    b.row - a.row
  );
}
