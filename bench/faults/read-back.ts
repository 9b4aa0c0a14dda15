import type { Redis } from 'ioredis';
import type { Collection } from 'mongodb';
import { memNamespace } from '../../actors/tools/mem/mem.tools';
import type { Answer, HttpClient } from './http-client';
import type { Load } from './load';

/** What reading every acknowledged write back found, for one phase. */
export interface PhaseReadBack {
  counters: {
    keys: number;
    /** Acknowledged increments. */
    acked: number;
    /** Increments acknowledged but missing from the counter. */
    lost: number;
    /** Increments found beyond the acknowledged ones and the one call of unknown outcome. */
    appliedTwice: number;
    /** Of those, on counters incremented with an `Idempotency-Key`. */
    keyedAppliedTwice: number;
    /** Of those, on keyed counters where a call was acknowledged only after a retry with its key. */
    retriedAppliedTwice: number;
    /** Keyed calls acknowledged after a retry with the same key. */
    retriedAcked: number;
    /** A call that said it had not run (`mayHaveRun: false`, or a 4xx) and was found applied. */
    ranAlthoughRefused: number;
    /** Calls of unknown outcome (no answer, or a 5xx that may have run): found applied / not applied. */
    unknownApplied: number;
    unknownNotApplied: number;
    /** Acknowledged calls whose `{value}` was not the count of acknowledged calls so far. */
    wrongValues: number;
  };
  sets: { acked: number; lost: number };
  files: { acked: number; lost: number; appliedTwice: number };
  memory: { acked: number; lost: number; appliedTwice: number };
}

function emptyReadBack(): PhaseReadBack {
  return {
    counters: {
      keys: 0,
      acked: 0,
      lost: 0,
      appliedTwice: 0,
      keyedAppliedTwice: 0,
      retriedAppliedTwice: 0,
      retriedAcked: 0,
      ranAlthoughRefused: 0,
      unknownApplied: 0,
      unknownNotApplied: 0,
      wrongValues: 0,
    },
    sets: { acked: 0, lost: 0 },
    files: { acked: 0, lost: 0, appliedTwice: 0 },
    memory: { acked: 0, lost: 0, appliedTwice: 0 },
  };
}

/** Examples of what went wrong (the first few of each kind), for the report. */
export type Findings = string[];

const MGET_CHUNK = 500;

async function mgetAll(redis: Redis, keys: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (let i = 0; i < keys.length; i += MGET_CHUNK)
    out.push(...(await redis.mget(...keys.slice(i, i + MGET_CHUNK))));
  return out;
}

/** A read of the service that must succeed now that every fault is over: a few tries, then an error. */
async function readJson(http: HttpClient, path: string, token: string): Promise<Record<string, unknown>> {
  let last: Answer | undefined;
  for (let i = 0; i < 5; i++) {
    last = await http.send('GET', path, token);
    if (last.status === 200 && last.json) return last.json;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`read back ${path}: ${last?.status} ${JSON.stringify(last?.json ?? {}).slice(0, 300)}`);
}

/**
 * Reads back every acknowledged write of the load, by phase. The `mem_*` values (counters and
 * `mem_set` keys: tens of thousands) are read from Redis directly, where the tools keep them
 * (`tools:mem:<agent id>:<key>`); files and memory entries through the service's own listings
 * (`GET /api/files`, `GET /api/memory`), which read the document server, and the files' content
 * hashes from the document server's `files` collection (`files`; listings show no hash).
 */
export async function readBack(
  load: Load,
  phases: number,
  redis: Redis,
  http: HttpClient,
  agentIds: readonly string[],
  accountToken: string,
  run: string,
  files: Collection,
): Promise<{ byPhase: PhaseReadBack[]; findings: Findings }> {
  const byPhase = Array.from({ length: phases }, emptyReadBack);
  const findings: Findings = [];
  const note = (line: string) => {
    if (findings.length < 40) findings.push(line);
  };
  const memKey = (client: number, key: string) => `${memNamespace(agentIds[client])}${key}`;

  // Counters: acked ≤ value ≤ acked + uncertain.
  const values = await mgetAll(
    redis,
    load.counters.map((c) => memKey(c.client, c.key)),
  );
  load.counters.forEach((c, i) => {
    const r = byPhase[c.phase].counters;
    const value = values[i] === null ? 0 : Number(values[i]);
    r.keys++;
    r.acked += c.acked;
    r.retriedAcked += c.retriedAcked;
    r.wrongValues += c.wrongValues;
    if (value < c.acked) {
      r.lost += c.acked - value;
      note(`phase ${c.phase}: counter ${c.key} reads ${value}, ${c.acked} increments acknowledged`);
    }
    const beyond = value - c.acked - c.uncertain;
    if (beyond > 0 && c.claimedNotRun === 1 && beyond === 1) {
      r.ranAlthoughRefused++;
      note(
        `phase ${c.phase}: counter ${c.key} reads ${value} after ${c.acked} acknowledged and a call refused as not run`,
      );
    } else if (beyond > 0) {
      r.appliedTwice += beyond;
      if (c.keyed) r.keyedAppliedTwice += beyond;
      if (c.keyed && c.retriedAcked > 0) r.retriedAppliedTwice += beyond;
      note(
        `phase ${c.phase}: ${c.keyed ? 'keyed ' : ''}counter ${c.key} reads ${value}, ${c.acked} acknowledged${c.uncertain ? ' + 1 of unknown outcome' : ''}${c.retriedAcked ? `, ${c.retriedAcked} after a retry` : ''}${c.failures.length ? `; failed attempts: ${c.failures.join('; ')}` : ''}`,
      );
    }
    if (c.uncertain === 1 && value >= c.acked) {
      if (value > c.acked) r.unknownApplied++;
      else r.unknownNotApplied++;
    }
  });

  // mem_set: each key written once, with {client, seq}.
  const setValues = await mgetAll(
    redis,
    load.sets.map((s) => memKey(s.client, s.key)),
  );
  load.sets.forEach((s, i) => {
    const r = byPhase[s.phase].sets;
    r.acked++;
    const raw = setValues[i];
    const v = raw === null ? undefined : (JSON.parse(raw) as { client?: number; seq?: number });
    if (v?.client !== s.client || v?.seq !== s.seq) {
      r.lost++;
      note(`phase ${s.phase}: mem_set ${s.key} acknowledged, reads ${raw}`);
    }
  });

  // Files: every acknowledged path listed by the service at version 1 (written once), with its
  // content's hash as the document server keeps it (the listing shows no hash).
  const found = new Map<string, { sha256?: string; version: number; size: number }>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ prefix: `bf-${run}`, limit: '1000' });
    if (cursor) query.set('cursor', cursor);
    const page = (await readJson(http, `/api/files?${query}`, accountToken)) as {
      entries: Array<{ path: string; sha256?: string; version: number; size: number }>;
      nextCursor: string | null;
    };
    for (const e of page.entries) found.set(e.path, e);
    cursor = page.nextCursor;
  } while (cursor);
  const hashes = new Map<string, string | undefined>();
  for (const doc of await files.find({}, { projection: { path: 1, sha256: 1 } }).toArray()) {
    hashes.set(String(doc.path), doc.sha256 as string | undefined);
  }
  for (const f of load.files) {
    const r = byPhase[f.phase].files;
    r.acked++;
    const e = found.get(f.path);
    const sha256 = hashes.get(f.path);
    if (!e || e.size !== f.size || sha256 !== f.sha256) {
      r.lost++;
      note(
        `phase ${f.phase}: file ${f.path} acknowledged, ${e ? `other content (${e.size} bytes, sha256 ${sha256})` : 'not listed'}`,
      );
    } else if (e.version > 1) {
      r.appliedTwice++;
      note(`phase ${f.phase}: file ${f.path} written once, at version ${e.version}`);
    }
  }

  // Memory entries: every acknowledged key with its content, at version 1.
  const namespaces = [...new Set(load.memories.map((m) => m.namespaceId))];
  const entries = new Map<string, { content: unknown; version: number }>();
  for (const namespaceId of namespaces) {
    const query = new URLSearchParams({ namespaceType: 'app', namespaceId, limit: '1000' });
    const page = (await readJson(http, `/api/memory?${query}`, accountToken)) as {
      entries: Array<{ key: string; namespaceId: string; content: unknown; version: number }>;
    };
    for (const e of page.entries) entries.set(`${e.namespaceId}/${e.key}`, e);
  }
  for (const m of load.memories) {
    const r = byPhase[m.phase].memory;
    r.acked++;
    const e = entries.get(`${m.namespaceId}/${m.key}`);
    const content = e?.content as { client?: number; seq?: number } | undefined;
    if (!e || content?.client !== m.client || content?.seq !== m.seq) {
      r.lost++;
      note(
        `phase ${m.phase}: memory ${m.namespaceId}/${m.key} acknowledged, ${e ? 'other content' : 'missing'}`,
      );
    } else if (e.version > 1) {
      r.appliedTwice++;
      note(`phase ${m.phase}: memory ${m.namespaceId}/${m.key} written once, at version ${e.version}`);
    }
  }
  return { byPhase, findings };
}
