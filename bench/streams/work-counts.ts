import type { BenchProcess } from '../tools/children';

/**
 * The work counts of one bench process (`{cmd: 'counts', id}` over IPC): the kernel's turns,
 * commands, replies (stream items included) and broadcasts (src/kernel/work-counters.ts), and the
 * commands its embedded document server ran, by name.
 */
export interface ProcessCounts {
  turns: number;
  commands: number;
  replies: number;
  broadcasts: number;
  turnsByType: Record<string, number>;
  documents: Record<string, number>;
}

let calls = 0;

/** Asks a process for its counts (zeros from a process that does not answer within 10 s). */
export async function countsOf(p: BenchProcess): Promise<ProcessCounts> {
  const id = String(++calls);
  p.send({ cmd: 'counts', id });
  try {
    return (await p.next<{ event: string; counts: ProcessCounts }>(`counts:${id}`, 10_000)).counts;
  } catch {
    return { turns: 0, commands: 0, replies: 0, broadcasts: 0, turnsByType: {}, documents: {} };
  }
}

/** Per-request work over a part of the run, summed over every process. */
export interface WorkPerRequest {
  requests: number;
  /** Document commands per request, by name, and all of them (`total`); writes = insert, update, delete, findAndModify. */
  documents: Record<string, number>;
  writes: number;
  /** Broker messages per request: commands + replies + broadcasts × nodes (each node gets each). */
  messages: number;
  commands: number;
  replies: number;
  broadcasts: number;
  turns: number;
  turnsByType: Record<string, number>;
}

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);
const r2 = (x: number) => Math.round(x * 100) / 100;

function sum(list: ProcessCounts[]): ProcessCounts {
  const out: ProcessCounts = {
    turns: 0,
    commands: 0,
    replies: 0,
    broadcasts: 0,
    turnsByType: {},
    documents: {},
  };
  for (const c of list) {
    out.turns += c.turns;
    out.commands += c.commands;
    out.replies += c.replies;
    out.broadcasts += c.broadcasts;
    for (const [k, v] of Object.entries(c.turnsByType)) out.turnsByType[k] = (out.turnsByType[k] ?? 0) + v;
    for (const [k, v] of Object.entries(c.documents)) out.documents[k] = (out.documents[k] ?? 0) + v;
  }
  return out;
}

/** Takes the counts of `processes` now; `per(n)` later gives the work per request since. */
export async function countWork(
  processes: BenchProcess[],
  nodes: number,
): Promise<{ per: (requests: number) => Promise<WorkPerRequest> }> {
  const before = sum(await Promise.all(processes.map(countsOf)));
  return {
    per: async (requests) => {
      const after = sum(await Promise.all(processes.map(countsOf)));
      const d = (a: number, b: number) => r2((a - b) / Math.max(1, requests));
      const documents: Record<string, number> = {};
      let writes = 0;
      let total = 0;
      for (const [k, v] of Object.entries(after.documents)) {
        const n = v - (before.documents[k] ?? 0);
        if (n === 0) continue;
        documents[k] = r2(n / Math.max(1, requests));
        total += n;
        if (WRITES.has(k)) writes += n;
      }
      documents.total = r2(total / Math.max(1, requests));
      const turnsByType: Record<string, number> = {};
      for (const [k, v] of Object.entries(after.turnsByType)) {
        const n = v - (before.turnsByType[k] ?? 0);
        if (n !== 0) turnsByType[k] = r2(n / Math.max(1, requests));
      }
      const broadcasts = d(after.broadcasts, before.broadcasts);
      const commands = d(after.commands, before.commands);
      const replies = d(after.replies, before.replies);
      return {
        requests,
        documents,
        writes: r2(writes / Math.max(1, requests)),
        messages: r2(commands + replies + broadcasts * nodes),
        commands,
        replies,
        broadcasts,
        turns: d(after.turns, before.turns),
        turnsByType,
      };
    },
  };
}
