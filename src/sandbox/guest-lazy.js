// @ts-check
'use strict';

/*
 * Parsing guest code in QuickJS is slow (the whole console + inspector + timers prelude takes about
 * a millisecond, more than creating the runtime and context), and most scripts print little and
 * use no timer. So every context gets only `stdin`, `args`, and accessors that load the guest module
 * behind a global on first use (GUEST_MODULES). The inspector is loaded later still, when console has
 * something other than a primitive to print or the host has an uncaught error to describe.
 *
 * These few globals are defined from the host, through the context's own `Object.defineProperty`
 * (pristine: no script has run yet), rather than by an installer written in guest code: parsing that
 * installer was about half of the sandbox's own cost of a call that prints nothing (measured: about
 * 0.1 ms of 0.3 ms per call).
 */

/**
 * @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext
 * @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle
 * @typedef {'console' | 'timers'} LazyModule
 * @typedef {{ value?: QuickJSHandle, error?: QuickJSHandle }} Loaded
 */

/** The globals each lazily loaded guest module defines. */
const GUEST_MODULES = Object.freeze({
  console: Object.freeze(['console']),
  timers: Object.freeze([
    'setTimeout',
    'setInterval',
    'setImmediate',
    'clearTimeout',
    'clearInterval',
    'clearImmediate',
    'queueMicrotask',
  ]),
});

/**
 * Defines `stdin`, `args` (a frozen array) and the lazy accessors on the context's global object.
 * Like builtins, they are writable (the accessors by their setter), configurable and not enumerable,
 * so that `let args` or `console = …` in a script still work. An accessor's getter loads its module
 * (which replaces the accessors of that module by plain values) and returns the global's new value;
 * a failed load is thrown again in the guest as the same value, so that an interrupt stays
 * uncatchable. The getters and setters can do nothing the script could not do itself by reading or
 * assigning the global.
 * @param {QuickJSContext} ctx a fresh context
 * @param {{ stdin: string, args: string[] }} task
 * @param {(module: LazyModule) => Loaded} load evaluates a guest module in this context (once)
 * @param {(handle: QuickJSHandle) => QuickJSHandle} own registers a handle to dispose with the run
 * @param {import('./guest-strings').GuestStrings} strings makes guest strings without losing a code unit
 */
function installLazyGlobals(ctx, task, load, own, strings) {
  const objectCtor = own(ctx.getProp(ctx.global, 'Object'));
  const defineProperty = own(ctx.getProp(objectCtor, 'defineProperty'));
  const freeze = own(ctx.getProp(objectCtor, 'freeze'));

  /**
   * `Object.defineProperty(globalThis, name, { ...fields, configurable: true, enumerable: false })`.
   * @param {string} name @param {Record<string, QuickJSHandle>} fields
   * @returns {QuickJSHandle | undefined} what it threw (the caller's to dispose)
   */
  const define = (name, fields) => {
    // Disposed here, not owned by the run: a script may call a saved setter any number of times.
    const descriptor = ctx.newObject();
    const key = ctx.newString(name);
    try {
      for (const [field, value] of Object.entries(fields)) ctx.setProp(descriptor, field, value);
      ctx.setProp(descriptor, 'configurable', ctx.true);
      ctx.setProp(descriptor, 'enumerable', ctx.false);
      const defined = ctx.callFunction(defineProperty, objectCtor, [ctx.global, key, descriptor]);
      if (defined.error) return defined.error;
      defined.value.dispose();
      return undefined;
    } finally {
      key.dispose();
      descriptor.dispose();
    }
  };
  /** @param {string} name @param {QuickJSHandle} value */
  const defineValue = (name, value) => define(name, { value, writable: ctx.true });
  /** While installing, a failure is the sandbox's own (the context is fresh): the run reports it. */
  const mustDefine = (/** @type {QuickJSHandle | undefined} */ error) => {
    if (!error) return;
    own(error);
    throw new Error('sandbox: the guest globals could not be defined');
  };

  for (const module of /** @type {LazyModule[]} */ (Object.keys(GUEST_MODULES))) {
    for (const name of GUEST_MODULES[module]) {
      let reading = false;
      const get = own(
        ctx.newFunction(name, () => {
          // A module that did not define its global would bring the read back here.
          if (reading) return undefined;
          const loaded = load(module);
          if (loaded.error) return { error: loaded.error.dup() };
          reading = true;
          try {
            return ctx.getProp(ctx.global, name);
          } finally {
            reading = false;
          }
        }),
      );
      const set = own(
        ctx.newFunction(name, (value) => {
          const error = defineValue(name, value ?? ctx.undefined);
          return error ? { error } : undefined;
        }),
      );
      mustDefine(define(name, { get, set }));
    }
  }
  mustDefine(defineValue('stdin', own(strings.make(task.stdin))));
  const args = own(ctx.newArray());
  task.args.forEach((arg, i) => strings.make(arg).consume((s) => ctx.setProp(args, i, s)));
  mustDefine(defineValue('args', own(ctx.unwrapResult(ctx.callFunction(freeze, objectCtor, args)))));
}

module.exports = { installLazyGlobals };
