import { z } from 'zod';
import { defineActor } from '../../../src/kernel';

describe('defineActor', () => {
  const messages = { 'doc.rename': z.object({ title: z.string().min(1) }) };

  it('returns a frozen definition listing its message types', () => {
    const def = defineActor({ kind: 'doc', messages, handlers: { 'doc.rename': () => null } });
    expect(def.messageTypes).toEqual(['doc.rename']);
    expect(Object.isFrozen(def)).toBe(true);
  });

  it('rejects bad names and missing or extra handlers at definition time', () => {
    const ok = { 'doc.rename': () => null };
    expect(() => defineActor({ kind: 'Doc', messages, handlers: ok })).toThrow(/kind/);
    expect(() => defineActor({ kind: 'doc:x', messages, handlers: ok })).toThrow(/kind/);
    expect(() =>
      defineActor({ kind: 'doc', messages: { rename: z.object({}) }, handlers: { rename: () => null } }),
    ).toThrow(/<domain>.<verb>/);
    expect(() =>
      defineActor({
        kind: 'doc',
        messages: { 'kernel.cancel': z.object({}) },
        handlers: { 'kernel.cancel': () => null },
      }),
    ).toThrow(/reserved/);
    expect(() => defineActor({ kind: 'doc', messages, handlers: {} as never })).toThrow(/no handler/);
    expect(() =>
      defineActor({ kind: 'doc', messages, handlers: { ...ok, 'doc.extra': () => null } as never }),
    ).toThrow(/no schema/);
  });

  it('types handler bodies from the schemas and state from activate (checked by tsc)', () => {
    const def = defineActor({
      kind: 'doc',
      messages: {
        'doc.rename': z.object({ title: z.string() }),
        'doc.bump': z.object({ by: z.number().default(1) }),
      },
      activate: async () => ({ title: '', version: 0 }),
      handlers: {
        'doc.rename': (ctx, body) => {
          const title: string = body.title;
          ctx.state.title = title;
          // @ts-expect-error the body has no such field
          void body.missing;
          return ctx.state.version;
        },
        'doc.bump': (ctx, { by }) => {
          const n: number = by; // output type: the default is applied
          ctx.state.version += n;
          // @ts-expect-error the state is { title, version }
          ctx.state.nope = 1;
        },
      },
    });
    expect(def.kind).toBe('doc');
  });
});
