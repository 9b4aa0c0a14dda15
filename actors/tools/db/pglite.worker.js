// @ts-check
'use strict';

/**
 * Worker thread that hosts the one PGlite instance of the embedded mode (see pglite-executor.ts).
 *
 * Plain CommonJS on purpose: the same file runs under jest (TypeScript sources) and from dist, with
 * no loader. PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it and cannot
 * be interrupted from JavaScript (it has no statement_timeout and no cancel): keeping it here lets the
 * main thread stay responsive and enforce time limits by terminating this thread.
 *
 * Protocol (one request at a time; the main thread queues):
 *   in:  { type: 'run', id, setup?, steps: [{ sql, params?, maxRows? }], maxResultBytes? }  |  { type: 'close' }
 *   out: { type: 'ready' } | { type: 'start-failed', message }
 *        { type: 'step', id, index }   before each step (the main thread re-arms its timer)
 *        { type: 'commit', id }        before COMMIT (an abort no longer stops the call)
 *        { type: 'done', id, results } | { type: 'failed', id, stepIndex, error }
 *        { type: 'closed' }
 */

const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite, protocol } = require('@electric-sql/pglite');

const { serialize } = protocol;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @type {any} */
let db;

/** @param {unknown} e */
function errorFields(e) {
  const err = /** @type {Record<string, unknown>} */ (e && typeof e === 'object' ? e : {});
  /** @param {string} k */
  const text = (k) => (typeof err[k] === 'string' ? /** @type {string} */ (err[k]) : undefined);
  return {
    // No SQLSTATE = not a database error: the main thread answers UNAVAILABLE.
    sqlstate:
      text('code') && /^[0-9A-Z]{5}$/.test(/** @type {string} */ (text('code'))) ? text('code') : undefined,
    message: text('message') ?? String(e),
    detail: text('detail'),
    hint: text('hint'),
    position: text('position'),
    schema: text('schema'),
    table: text('table'),
    column: text('column'),
    constraint: text('constraint'),
  };
}

/** @param {string} tag */
function commandTag(tag) {
  const parts = tag.trim().split(' ');
  const last = parts[parts.length - 1];
  if (parts.length > 1 && /^\d+$/.test(last)) {
    return {
      command: (parts[0] === 'INSERT' ? parts.slice(0, 1) : parts.slice(0, -1)).join(' '),
      rowCount: Number(last),
    };
  }
  return { command: parts.join(' '), rowCount: undefined };
}

/**
 * Size of a row for the result cap; the same count as rowBytes in sql-executor.ts.
 * @param {(string|null)[]} row
 */
function rowBytes(row) {
  let size = 0;
  for (const v of row) size += (v === null ? 0 : v.length) + 1;
  return size;
}

/**
 * One statement with the extended protocol: Parse, Bind, Describe, Execute (at most maxRows rows,
 * 0 = all), then Sync; rows stay in text format. Rows past `maxBytes` are dropped (`cut`).
 * @param {{ sql: string, params: (string|null)[], maxRows?: number }} step
 * @param {number} maxBytes
 */
async function extended(step, maxBytes) {
  /** @type {any[]} */
  const messages = [];
  /** @param {Uint8Array} m */
  const send = async (m) => {
    messages.push(...(await db.execProtocol(m, { syncToFs: false })).messages);
  };
  try {
    await send(serialize.parse({ text: step.sql }));
    await send(serialize.bind({ values: step.params }));
    await send(serialize.describe({ type: 'P' }));
    await send(serialize.execute({ rows: step.maxRows ?? 0 }));
  } finally {
    messages.push(...(await db.execProtocol(serialize.sync(), { syncToFs: false })).messages);
  }
  /** @type {{ fields: { name: string, typeOid: number }[], rows: (string|null)[][], command?: string, rowCount?: number, suspended: boolean, cut: boolean, bytes: number }} */
  const result = { fields: [], rows: [], suspended: false, cut: false, bytes: 0 };
  for (const m of messages) {
    if (m.name === 'rowDescription') {
      result.fields = m.fields.map((/** @type {any} */ f) => ({ name: f.name, typeOid: f.dataTypeID }));
    } else if (m.name === 'dataRow' && !result.cut) {
      const size = rowBytes(m.fields);
      if (result.bytes + size > maxBytes) result.cut = true;
      else {
        result.bytes += size;
        result.rows.push(m.fields);
      }
    } else if (m.name === 'portalSuspended') {
      result.suspended = true;
    } else if (m.name === 'commandComplete') {
      Object.assign(result, commandTag(m.text));
    }
  }
  return result;
}

/** @param {{ id: number, setup?: string, steps: { sql: string, params?: (string|null)[], maxRows?: number }[], maxResultBytes?: number }} msg */
async function run(msg) {
  const results = [];
  let stepIndex = -1;
  let budget = msg.maxResultBytes ?? Number.POSITIVE_INFINITY;
  try {
    await db.exec('BEGIN');
    if (msg.setup) await db.exec(msg.setup);
    for (let i = 0; i < msg.steps.length; i++) {
      const step = msg.steps[i];
      stepIndex = i;
      port.postMessage({ type: 'step', id: msg.id, index: i });
      if (step.params) {
        const result = await extended({ sql: step.sql, params: step.params, maxRows: step.maxRows }, budget);
        budget -= result.bytes;
        results.push(result);
      } else {
        await db.exec(step.sql);
        results.push({ fields: [], rows: [], suspended: false });
      }
    }
    stepIndex = msg.steps.length;
    port.postMessage({ type: 'commit', id: msg.id });
    await db.exec('COMMIT');
    port.postMessage({ type: 'done', id: msg.id, results });
  } catch (e) {
    try {
      await db.exec('ROLLBACK');
    } catch {
      // No transaction left to roll back.
    }
    port.postMessage({ type: 'failed', id: msg.id, stepIndex, error: errorFields(e) });
  }
}

let chain = Promise.resolve();

port.on('message', (/** @type {any} */ msg) => {
  if (msg.type === 'run') {
    chain = chain.then(() => run(msg));
  } else if (msg.type === 'close') {
    chain = chain.then(async () => {
      try {
        await db?.close();
      } finally {
        port.postMessage({ type: 'closed' });
      }
    });
  }
});

(async () => {
  try {
    fs.mkdirSync(workerData.dataDir, { recursive: true });
    db = await PGlite.create({ dataDir: workerData.dataDir });
    port.postMessage({ type: 'ready' });
  } catch (e) {
    port.postMessage({ type: 'start-failed', message: e instanceof Error ? e.message : String(e) });
  }
})();
