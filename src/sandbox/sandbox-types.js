// @ts-check
'use strict';

/*
 * Types shared by the worker-side modules (JSDoc only; this module exports nothing at run time).
 * The main thread's view of the same data is the zod schemas in schemas/tools/proc-execute.ts.
 */

/**
 * @typedef {import('quickjs-emscripten').QuickJSWASMModule} QuickJSWASMModule
 *
 * @typedef {{ buffer: ArrayBuffer }} WasmMemory a WebAssembly.Memory (not in this project's TS libs)
 *
 * @typedef {object} Engine one instantiated WebAssembly module with its (bounded) linear memory
 * @property {QuickJSWASMModule} module
 * @property {WasmMemory} memory
 * @property {number} maxBytes the memory's hard maximum
 * @property {number} runs scripts run on it so far
 *
 * @typedef {object} Limits fixed per pool (workerData)
 * @property {number} memoryLimitBytes
 * @property {number} maxStackSizeBytes
 * @property {number} outputLimitBytes
 * @property {number} resultLimitBytes
 * @property {number} maxResultDepth deepest nesting of arrays and objects in `result`
 *
 * @typedef {object} ScriptTask what one call needs (validated on the main thread)
 * @property {string} code
 * @property {string} stdin
 * @property {string[]} args
 * @property {number} timeoutMs
 *
 * @typedef {'ok' | 'error' | 'syntax_error' | 'timeout' | 'out_of_memory' | 'cancelled'} Outcome
 *
 * @typedef {object} Reply what the worker answers (exitCode is derived on the main thread)
 * @property {Outcome} outcome
 * @property {string} stdout
 * @property {string} stderr
 * @property {boolean} truncated
 * @property {number} durationMs
 * @property {unknown} [result] present only when the script produced a JSON value
 * @property {true} [resultTooDeep] the script's value nests deeper than `maxResultDepth` (no `result`)
 *
 * @typedef {object} RunReport
 * @property {Reply} reply
 * @property {boolean} healthy false when the engine must not be reused
 * @property {string} [internalError] a failure of the sandbox itself, not of the script
 */

module.exports = {};
