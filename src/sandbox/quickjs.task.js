// @ts-check
'use strict';

/**
 * Piscina task: runs one untrusted script in QuickJS (WebAssembly) and answers how it ended.
 *
 * Plain CommonJS on purpose: the same file runs under jest (TypeScript sources) and from dist, with
 * no loader. The task is a pure function of its input (validated on the main thread) and of the
 * pool's fixed limits (workerData).
 *
 * Per worker: the WebAssembly module is compiled once, and instantiated with its own bounded memory
 * (the engine). Every call gets a fresh QuickJS runtime and context on that engine. The engine is
 * replaced after an out-of-memory end, after any failure of the engine itself, once its memory has
 * grown past half its cap, and every RECYCLE_AFTER_RUNS calls; instantiating from the compiled module
 * takes about a millisecond.
 */

const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = require('quickjs-emscripten');
const { runScript } = require('./quickjs-run');
const { HostLink } = require('./host-link');

/** Slots of the per-call control block (Int32Array over a SharedArrayBuffer); see sandbox-call.ts. */
const STATE = 0;
const STARTED_AFTER_MS = 1;
const QUEUED = 0;
const RUNNING = 1;
const CANCELLED = 2;

/** WebAssembly is not in this project's TypeScript libs (ES2023, no DOM). */
const Wasm = /** @type {any} */ (globalThis).WebAssembly;
const WASM_PAGE = 64 * 1024;
/** Initial size of an engine's memory: what emscripten expects (stack and data take ~5.3 MB). */
const INITIAL_BYTES = 16 * 1024 * 1024;
const RECYCLE_AFTER_RUNS = 5000;

/** @typedef {import('./sandbox-types').Engine} Engine */
/** @typedef {import('./sandbox-types').Limits} Limits */
/** @typedef {import('./sandbox-types').Reply} Reply */

/**
 * @typedef {object} TaskInput
 * @property {string} code
 * @property {string} stdin
 * @property {string[]} args
 * @property {number} timeoutMs
 * @property {SharedArrayBuffer} control the call's control block
 * @property {number} submittedAt Date.now() on the main thread when the call was queued
 * @property {import('./host-link').HostTask} [host] host calls offered to this run (the global `platform`)
 */

/** @returns {Limits} */
function readLimits() {
  const d = workerData ?? {};
  /** @param {string} key */
  const positive = (key) => {
    const v = d[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      throw new Error(`sandbox worker: bad ${key}`);
    return v;
  };
  return {
    memoryLimitBytes: positive('memoryLimitBytes'),
    maxStackSizeBytes: positive('maxStackSizeBytes'),
    outputLimitBytes: positive('outputLimitBytes'),
    resultLimitBytes: positive('resultLimitBytes'),
    maxResultDepth: positive('maxResultDepth'),
  };
}

const limits = readLimits();
const maxPages = Math.ceil(limits.memoryLimitBytes / WASM_PAGE);

/** @type {Promise<unknown> | null} WebAssembly.Module */
let compiled = null;
/** @type {Promise<Engine> | null} */
let current = null;

function compileModule() {
  // Resolved from quickjs-emscripten itself, so a nested (non-hoisted) install is found too.
  const wasmPath = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm', {
    paths: [require.resolve('quickjs-emscripten')],
  });
  return /** @type {Promise<unknown>} */ (Wasm.compile(fs.readFileSync(wasmPath)));
}

/**
 * Run on the worker's first engine: V8 compiles WebAssembly functions on first use, so the engine's
 * parser, console, inspector and timer paths would otherwise be compiled inside a user's first call
 * (tens of milliseconds, counted against its timeout).
 */
const WARM_UP = {
  code: "console.log('w', { a: [1] }, new Error('e')); setTimeout(() => {}, 1); (async () => JSON.stringify({ a: 1 }))()",
  stdin: '',
  args: [],
  timeoutMs: 10_000,
};

let warmedUp = false;

/** @returns {Promise<Engine>} */
async function createEngine() {
  compiled ??= compileModule().catch((/** @type {unknown} */ err) => {
    compiled = null;
    throw err;
  });
  const wasmModule = /** @type {any} */ (await compiled);
  // The memory's maximum is the real memory cap: the QuickJS allocator limit alone does not bound
  // the bytes this build allocates (it cannot see block sizes).
  const memory = new Wasm.Memory({ initial: INITIAL_BYTES / WASM_PAGE, maximum: maxPages });
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, { wasmModule, wasmMemory: memory }),
  );
  const engine = { module, memory, maxBytes: maxPages * WASM_PAGE, runs: 0 };
  if (!warmedUp) {
    // Later engines share the compiled code of the same module: once per worker is enough.
    const report = runScript(engine, WARM_UP, limits, () => false);
    if (!report.healthy) throw new Error('sandbox engine warm-up failed');
    warmedUp = true;
  }
  return engine;
}

/** @returns {Promise<Engine>} */
function getEngine() {
  current ??= createEngine().catch((err) => {
    current = null;
    throw err;
  });
  return current;
}

// Start (and warm up) the engine while the worker waits for its first call; a failure here is
// retried by that call.
getEngine().catch(() => {});

/** @type {Reply} */
const CANCELLED_REPLY = Object.freeze({
  outcome: 'cancelled',
  stdout: '',
  stderr: '',
  truncated: false,
  durationMs: 0,
});

/**
 * @param {TaskInput} task
 * @returns {Promise<Reply>}
 */
async function runTask(task) {
  const control = new Int32Array(task.control);
  if (Atomics.load(control, STATE) !== QUEUED) {
    task.host?.port.close();
    return CANCELLED_REPLY;
  }
  // A call is RUNNING only from here, once the engine is ready: waiting for a fresh engine, or
  // (tasksPerWorker 2) for the call this worker runs before it, does not count against its timeout.
  const engine = await getEngine();
  // The start time goes first: the main thread reads it only once it sees RUNNING.
  Atomics.store(control, STARTED_AFTER_MS, Math.max(0, Date.now() - task.submittedAt));
  if (Atomics.compareExchange(control, STATE, QUEUED, RUNNING) !== QUEUED) {
    // Cancelled while queued: the caller has had its answer already.
    task.host?.port.close();
    return CANCELLED_REPLY;
  }
  const host = task.host ? new HostLink(task.host, control) : undefined;
  let report;
  try {
    report = runScript(engine, task, limits, () => Atomics.load(control, STATE) === CANCELLED, host);
  } finally {
    host?.close();
  }
  engine.runs += 1;
  const retire =
    !report.healthy ||
    engine.runs >= RECYCLE_AFTER_RUNS ||
    engine.memory.buffer.byteLength > Math.max(engine.maxBytes / 2, INITIAL_BYTES);
  if (retire) {
    // Drop this engine (its memory goes with it) and start the next one now, so that the next call
    // does not wait for it.
    current = null;
    getEngine().catch(() => {});
  }
  if (report.internalError) throw new Error(`sandbox engine failure: ${report.internalError}`);
  return report.reply;
}

module.exports = runTask;
