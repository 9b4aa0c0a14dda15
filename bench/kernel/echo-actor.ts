import { z } from 'zod';
import { defineActor } from '../../src/kernel';

/** The message every kernel case sends: a small body, answered as it came. */
export const ECHO_TYPE = 'echo.say';

/** The body of each request (a few dozen bytes of JSON, like a small command). */
export function echoBody(n: number): { n: number; text: string } {
  return { n, text: 'hello, actor' };
}

/** A trivial actor: validates its body and returns it. No state, no I/O. */
export function echoActor(kind: string, dedupe: 'local' | 'shared' = 'local') {
  return defineActor({
    kind,
    dedupe,
    messages: { [ECHO_TYPE]: z.object({ n: z.number(), text: z.string() }) },
    handlers: { [ECHO_TYPE]: (_ctx, body) => body },
  });
}
