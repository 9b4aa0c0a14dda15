import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * zod → JSON Schema 2020-12, the dialect of OpenAPI 3.1. Requests are described by what the client
 * sends (`io: 'input'`: defaults optional, coercions as their input), answers by what the service
 * sends (`io: 'output'`). Definitions that zod puts in `$defs` (recursive schemas) are moved to
 * `components.schemas` under a unique name, since a `#/$defs/...` reference would resolve against
 * the whole document.
 */
export class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};
  private counter = 0;

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      // Dates and other values JSON cannot carry are sent as strings by res.json.
      override: (ctx) => {
        const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
        if (def?.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
      },
    }) as JsonSchema;
    delete json.$schema;
    const defs = json.$defs as Record<string, JsonSchema> | undefined;
    if (!defs) return json;
    delete json.$defs;
    const prefix = `Def${++this.counter}_`;
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: JsonSchema = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
          out[key] = `#/components/schemas/${prefix}${value.slice('#/$defs/'.length)}`;
        } else out[key] = rewrite(value);
      }
      return out;
    };
    for (const [name, def] of Object.entries(defs))
      this.components[prefix + name] = rewrite(def) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }
}
