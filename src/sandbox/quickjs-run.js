// @ts-check
'use strict';

const { performance } = require('node:perf_hooks');
const { GuestBridge } = require('./guest-bridge');
const { installPlatform } = require('./host-link');
const { errorMessage, errorName, fallbackDescription, readResult } = require('./guest-values');
const { OutputBuffer } = require('./output-buffer');

/**
 * @typedef {import('quickjs-emscripten').QuickJSRuntime} QuickJSRuntime
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 * @typedef {import('./sandbox-types').Engine} Engine
 * @typedef {import('./sandbox-types').Limits} Limits
 * @typedef {import('./sandbox-types').ScriptTask} ScriptTask
 * @typedef {import('./sandbox-types').Outcome} Outcome
 * @typedef {import('./sandbox-types').Reply} Reply
 * @typedef {import('./sandbox-types').RunReport} RunReport
 * @typedef {import('./host-link').HostLink} HostLink
 */

const SCRIPT_NAME = 'main.js';
/** Jobs run between two host-side checks of the deadline and of the cancel flag. */
const JOB_BATCH = 1000;
/** Past this share of its maximum the memory is treated as exhausted (emscripten grows in steps). */
const NEAR_CAP = 0.9;

/**
 * Runs one script in a fresh runtime and context of `engine` (nothing survives the call), under
 * the interrupt handler (deadline and cancel flag), and reports how it ended.
 * @param {Engine} engine
 * @param {ScriptTask} task
 * @param {Limits} limits
 * @param {() => boolean} cancelRequested
 * @param {HostLink} [host] the run's host calls (the global `platform`), when the caller offers them
 * @returns {RunReport}
 */
function runScript(engine, task, limits, cancelRequested, host) {
  return new ScriptRun(engine, task, limits, cancelRequested, host).run();
}

class ScriptRun {
  /**
   * @param {Engine} engine @param {ScriptTask} task @param {Limits} limits
   * @param {() => boolean} cancelRequested
   * @param {HostLink} [host]
   */
  constructor(engine, task, limits, cancelRequested, host) {
    this.engine = engine;
    this.host = host;
    this.task = task;
    this.limits = limits;
    this.cancelRequested = cancelRequested;
    this.started = performance.now();
    this.deadline = this.started + task.timeoutMs;
    this.stdout = new OutputBuffer(limits.outputLimitBytes);
    this.stderr = new OutputBuffer(limits.outputLimitBytes);
    /** @type {'timeout' | 'cancelled' | null} set once by the interrupt handler, never cleared */
    this.stop = null;
    /** @type {Outcome} */
    this.outcome = 'ok';
    this.healthy = true;
    /** @type {{ value: unknown } | null} */
    this.result = null;
    this.resultTruncated = false;
    /** The result nested deeper than `limits.maxResultDepth`: the call is refused (VALIDATION_ERROR). */
    this.resultTooDeep = false;
    /** @type {QuickJSHandle[]} disposed in reverse order at the end */
    this.owned = [];
    /** @type {GuestBridge | null} */
    this.guest = null;
  }

  /** @returns {RunReport} */
  run() {
    /** @type {string | undefined} */
    let internalError;
    /** @type {QuickJSRuntime | null} */
    let rt = null;
    /** @type {QuickJSContext | null} */
    let ctx = null;
    try {
      rt = this.engine.module.newRuntime({
        memoryLimitBytes: this.limits.memoryLimitBytes,
        maxStackSizeBytes: this.limits.maxStackSizeBytes,
      });
      rt.setInterruptHandler(() => this.shouldStop());
      ctx = rt.newContext();
      this.execute(rt, ctx);
    } catch (err) {
      internalError = this.hostFailure(err);
    } finally {
      try {
        for (const h of this.owned.reverse()) if (h.alive) h.dispose();
        ctx?.dispose();
        rt?.dispose();
      } catch {
        // A failed free (an engine assertion) leaves the module in an unknown state: retire it.
        this.healthy = false;
      }
    }
    return { reply: this.reply(), healthy: this.healthy, internalError };
  }

  shouldStop() {
    if (this.stop === null) {
      if (this.cancelRequested()) this.stop = 'cancelled';
      else if (performance.now() > this.deadline) this.stop = 'timeout';
    }
    return this.stop !== null;
  }

  /** @param {QuickJSRuntime} rt @param {QuickJSContext} ctx */
  execute(rt, ctx) {
    this.guest = new GuestBridge(ctx, this.task, this.limits, this.stdout, this.stderr, (h) => this.own(h));
    const host = this.host;
    if (host) {
      installPlatform(
        ctx,
        (h) => this.own(h),
        (name, input) => host.call(name, input, this.deadline, this.cancelRequested),
        // A host call that ended the run: the interrupt handler stops the script at its next check.
        (stop) => {
          if (this.stop === null) this.stop = stop;
        },
      );
    }
    const evaluated = ctx.evalCode(this.task.code, SCRIPT_NAME, { type: 'global' });
    if (evaluated.error) return this.fail(ctx, this.own(evaluated.error), true);
    const value = this.own(evaluated.value);
    const promise = this.promiseState(ctx, value).type === 'not_a_promise' ? null : value;

    // Node-like: run jobs, then timers, until nothing is left or the final promise is rejected.
    for (;;) {
      if (this.shouldStop()) return this.finishStopped();
      if (rt.hasPendingJob()) {
        const jobs = rt.executePendingJobs(JOB_BATCH);
        if (jobs.error) return this.fail(ctx, this.own(jobs.error), false);
        continue;
      }
      if (promise && isRejected(ctx, promise)) break;
      const timer = this.guest.runTimer();
      if (timer.error) return this.fail(ctx, timer.error, false);
      if (!timer.ran) break;
    }

    let final = value;
    if (promise) {
      const settled = this.promiseState(ctx, promise);
      if (settled.type === 'rejected') return this.fail(ctx, settled.handle, false);
      if (settled.type !== 'fulfilled') return;
      final = settled.handle;
    }
    this.collectResult(ctx, final);
  }

  /**
   * The state of a promise, with the handle of its value or reason (owned by this run).
   * @param {QuickJSContext} ctx @param {QuickJSHandle} handle
   * @returns {{ type: 'not_a_promise' | 'pending' } | { type: 'fulfilled' | 'rejected', handle: QuickJSHandle }}
   */
  promiseState(ctx, handle) {
    const state = ctx.getPromiseState(handle);
    if (state.type === 'pending') return { type: 'pending' };
    if (state.type === 'rejected') return { type: 'rejected', handle: this.own(state.error) };
    if (state.notAPromise) return { type: 'not_a_promise' };
    return { type: 'fulfilled', handle: this.own(state.value) };
  }

  /**
   * Records how an uncaught exception ends the run.
   * @param {QuickJSContext} ctx @param {QuickJSHandle} error @param {boolean} atEvaluation
   */
  fail(ctx, error, atEvaluation) {
    if (this.stop !== null) return this.finishStopped();
    const message = errorMessage(ctx, error);
    if (message === 'out of memory' || (message === undefined && this.memoryExhausted())) {
      return this.finishOutOfMemory();
    }
    this.outcome = 'error';
    // A SyntaxError thrown while evaluating is a parse error only if the source does not compile:
    // `JSON.parse('{')` at run time throws one too.
    if (atEvaluation && errorName(ctx, error) === 'SyntaxError') {
      const check = ctx.evalCode(this.task.code, SCRIPT_NAME, { type: 'global', compileOnly: true });
      if (check.error) this.outcome = 'syntax_error';
      this.own(check.error ?? check.value);
    }
    const description = this.guest?.describe(error);
    if (this.stop !== null) return this.finishStopped();
    const strings = this.guest?.strings ?? { read: (/** @type {QuickJSHandle} */ h) => ctx.getString(h) };
    this.stderr.note(description ?? fallbackDescription(ctx, error, strings));
  }

  finishStopped() {
    this.outcome = this.stop === 'cancelled' ? 'cancelled' : 'timeout';
    // A cancel's note (with its reason) is added on the main thread, which knows the reason.
    if (this.outcome === 'timeout') {
      this.stderr.note(`Error: script timed out after ${this.task.timeoutMs} ms`);
    }
  }

  finishOutOfMemory() {
    this.outcome = 'out_of_memory';
    this.healthy = false;
    const mb = Math.round(this.engine.maxBytes / (1024 * 1024));
    this.stderr.note(`InternalError: out of memory (the sandbox allows ${mb} MB)`);
  }

  memoryExhausted() {
    return this.engine.memory.buffer.byteLength >= this.engine.maxBytes * NEAR_CAP;
  }

  /** @param {QuickJSContext} ctx @param {QuickJSHandle} value */
  collectResult(ctx, value) {
    if (!this.guest) return;
    const { resultLimitBytes, maxResultDepth } = this.limits;
    const own = (/** @type {QuickJSHandle} */ h) => this.own(h);
    const read = readResult(ctx, value, resultLimitBytes, maxResultDepth, own, this.guest.strings);
    if (read.kind === 'value') this.result = { value: read.value };
    else if (read.kind === 'too_large') this.resultTruncated = true;
    else if (read.kind === 'too_deep') this.resultTooDeep = true;
    else if (read.kind === 'failed' && this.stop !== null) this.finishStopped();
  }

  /**
   * Classifies a failure of the engine itself (an exception on the host side of the FFI). The module
   * is retired whatever it was.
   * @param {unknown} err
   * @returns {string | undefined} the internal error to report, if the script is not to blame
   */
  hostFailure(err) {
    this.healthy = false;
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      // The native stack ran out before QuickJS's own check fired (deep recursion in the engine).
      this.outcome = 'error';
      this.stderr.note('InternalError: stack overflow');
      return undefined;
    }
    if (this.stop !== null) {
      this.finishStopped();
      return undefined;
    }
    if (this.memoryExhausted()) {
      this.finishOutOfMemory();
      return undefined;
    }
    this.outcome = 'error';
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }

  /** @returns {Reply} */
  reply() {
    /** @type {Reply} */
    const reply = {
      outcome: this.outcome,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      truncated: this.stdout.truncated || this.stderr.truncated || this.resultTruncated,
      durationMs: Math.max(0, Math.round(performance.now() - this.started)),
    };
    if (this.outcome === 'ok' && this.result) reply.result = this.result.value;
    if (this.outcome === 'ok' && this.resultTooDeep) reply.resultTooDeep = true;
    return reply;
  }

  /**
   * @template {QuickJSHandle} H
   * @param {H} handle
   * @returns {H}
   */
  own(handle) {
    this.owned.push(handle);
    return handle;
  }
}

/**
 * Whether a promise is rejected, without keeping a handle: this runs once per timer, and a handle
 * kept per iteration would grow with the number of timers.
 * @param {QuickJSContext} ctx @param {QuickJSHandle} promise
 */
function isRejected(ctx, promise) {
  const state = ctx.getPromiseState(promise);
  if (state.type === 'rejected') state.error.dispose();
  else if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
  return state.type === 'rejected';
}

module.exports = { runScript };
