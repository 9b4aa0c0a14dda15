// @ts-check
'use strict';

const { receiveMessageOnPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');

/**
 * The worker's side of the host calls of one run (docs/sandbox.md, "Host calls"): the guest's
 * `platform.call(name, input)` is synchronous, so the worker posts the call to the main thread on
 * the run's MessagePort and blocks (`Atomics.wait` on the call's control block) until the main
 * thread has posted the answer and bumped the HOST_SEQ slot. The wait is bounded by the run's
 * deadline and ends at once on a cancel (the main thread bumps the slot then too), so a host call
 * never outlives its run: its time counts against the script's timeout.
 *
 * @typedef {{ port: import('node:worker_threads').MessagePort, maxCalls: number, maxInputBytes: number }} HostTask
 * @typedef {{ json: string } | { error: { code: string, message: string } } | { stop: 'timeout' | 'cancelled' }} HostAnswer
 */

/** Slot of the control block the main thread bumps after each answer (and on cancel). */
const HOST_SEQ = 2;

class HostLink {
  /**
   * @param {HostTask} host
   * @param {Int32Array} control the call's control block (3 slots when host calls are on)
   */
  constructor(host, control) {
    this.port = host.port;
    this.maxCalls = host.maxCalls;
    this.maxInputBytes = host.maxInputBytes;
    this.control = control;
    this.calls = 0;
  }

  /**
   * One call, answered synchronously.
   * @param {string} name @param {string} input JSON text
   * @param {number} deadline performance.now() value past which the run is over
   * @param {() => boolean} cancelled
   * @returns {HostAnswer}
   */
  call(name, input, deadline, cancelled) {
    if (this.calls >= this.maxCalls) {
      return {
        error: { code: 'RATE_LIMITED', message: `At most ${this.maxCalls} platform calls per run` },
      };
    }
    if (Buffer.byteLength(input, 'utf8') > this.maxInputBytes) {
      return {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `The input of a platform call is at most ${this.maxInputBytes} bytes of JSON`,
        },
      };
    }
    this.calls += 1;
    // Read before posting: an answer that comes before the wait changes the slot, so the wait
    // returns at once ("not-equal") instead of sleeping.
    let seq = Atomics.load(this.control, HOST_SEQ);
    this.port.postMessage({ name, input });
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (received) return readAnswer(received.message);
      if (cancelled()) return { stop: 'cancelled' };
      const left = deadline - performance.now();
      if (left <= 0) return { stop: 'timeout' };
      const now = Atomics.load(this.control, HOST_SEQ);
      if (now !== seq) {
        // Bumped with no answer on the port yet (a cancel being set): look again.
        seq = now;
        continue;
      }
      Atomics.wait(this.control, HOST_SEQ, seq, left);
    }
  }

  close() {
    try {
      this.port.close();
    } catch {
      // already closed
    }
  }
}

/**
 * The main thread's answer, checked (it is this service's own code, but a bad shape must not
 * reach the guest as anything but an error).
 * @param {unknown} message
 * @returns {HostAnswer}
 */
function readAnswer(message) {
  const m = /** @type {{ ok?: unknown, json?: unknown, code?: unknown, message?: unknown }} */ (message);
  if (m && m.ok === true && typeof m.json === 'string') return { json: m.json };
  if (m && m.ok === false && typeof m.code === 'string' && typeof m.message === 'string') {
    return { error: { code: m.code, message: m.message } };
  }
  return { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } };
}

/**
 * Guest code of the `platform` global: `platform.call(name, input)` sends the input as JSON text
 * (with the JSON functions saved before any script ran) and returns the parsed answer; a refused or
 * failed call throws a `PlatformError` whose `code` says why.
 */
const PLATFORM_SOURCE = `(function (host) {
  'use strict';
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var freeze = Object.freeze;
  function call(name, input) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new TypeError('platform.call(name, input): name must be a non-empty string');
    }
    var text = stringify(input === undefined ? {} : input);
    if (typeof text !== 'string') throw new TypeError('platform.call: input must be JSON');
    return parse(host(name, text));
  }
  return freeze({ call: call });
})`;

/**
 * Defines the global `platform` (not writable, not configurable) in a fresh context.
 * @param {import('quickjs-emscripten').QuickJSContext} ctx
 * @param {(handle: import('quickjs-emscripten').QuickJSHandle) => import('quickjs-emscripten').QuickJSHandle} own
 * @param {(name: string, input: string) => HostAnswer} call
 * @param {(stop: 'timeout' | 'cancelled') => void} onStop
 */
function installPlatform(ctx, own, call, onStop) {
  const platformError = (/** @type {string} */ code, /** @type {string} */ message) => {
    const error = ctx.newError({ name: 'PlatformError', message });
    ctx.newString(code).consume((c) => ctx.setProp(error, 'code', c));
    return error;
  };
  const host = own(
    ctx.newFunction('host', (nameHandle, inputHandle) => {
      if (ctx.typeof(nameHandle) !== 'string' || ctx.typeof(inputHandle) !== 'string') {
        return { error: platformError('VALIDATION_ERROR', 'platform.call takes a name and JSON input') };
      }
      const answer = call(ctx.getString(nameHandle), ctx.getString(inputHandle));
      if ('stop' in answer) {
        onStop(answer.stop);
        const message = answer.stop === 'timeout' ? 'script timed out' : 'execution cancelled';
        return {
          error: platformError(answer.stop === 'timeout' ? 'DEADLINE_EXCEEDED' : 'UNAVAILABLE', message),
        };
      }
      if ('error' in answer) return { error: platformError(answer.error.code, answer.error.message) };
      return ctx.newString(answer.json);
    }),
  );
  const factory = ctx.evalCode(PLATFORM_SOURCE, 'platform.js', { type: 'global' });
  if (factory.error) {
    own(factory.error);
    throw new Error('sandbox: the platform global could not be defined');
  }
  const made = ctx.callFunction(own(factory.value), ctx.undefined, host);
  if (made.error) {
    own(made.error);
    throw new Error('sandbox: the platform global could not be defined');
  }
  const platform = own(made.value);
  const objectCtor = own(ctx.getProp(ctx.global, 'Object'));
  const defineProperty = own(ctx.getProp(objectCtor, 'defineProperty'));
  const descriptor = own(ctx.newObject());
  ctx.setProp(descriptor, 'value', platform);
  ctx.setProp(descriptor, 'enumerable', ctx.false);
  const key = own(ctx.newString('platform'));
  const defined = ctx.callFunction(defineProperty, objectCtor, [ctx.global, key, descriptor]);
  if (defined.error) {
    own(defined.error);
    throw new Error('sandbox: the platform global could not be defined');
  }
  own(defined.value);
}

module.exports = { HostLink, installPlatform, HOST_SEQ };
