import type { ConnectorTool } from '../../schemas/documents/connector';
import type { ConnectorCallResult } from '../../schemas/messages/connectors';

/**
 * What a connector's server answers, as stored and returned (mcp-session.ts): tool list entries
 * with their schemas forced to objects and bounded, and tool results normalized.
 */

/** An input schema larger than this (JSON) is replaced by `{type: "object"}`. */
const MAX_SCHEMA_BYTES = 64 * 1024;
/** Input schemas of one server together (JSON); past it, further tools get `{type: "object"}`. The document stays far below MongoDB's 16 MB. */
export const MAX_SCHEMAS_BYTES = 2 * 1024 * 1024;
const MAX_DESCRIPTION = 2000;
/** A tool's title, and each annotation's name and text value, at most this long; at most so many annotations. */
const MAX_TITLE = 200;
const MAX_ANNOTATIONS = 20;

/** A JSON Schema of `type: "object"` (MCP's rule for input and output schemas) without `$schema`, or undefined. */
function objectSchema(raw: unknown): Record<string, unknown> | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { $schema: _dialect, ...rest } = raw as Record<string, unknown>;
  return rest.type === undefined || rest.type === 'object' ? { ...rest, type: 'object' } : undefined;
}

/** Within the sizes: the schema, its JSON counted against `budget`; else undefined. */
function withinBudget(schema: Record<string, unknown>, budget: { bytes: number }) {
  const size = JSON.stringify(schema).length;
  if (size > MAX_SCHEMA_BYTES || size > budget.bytes) return undefined;
  budget.bytes -= size;
  return schema;
}

/** The server's annotations: every hint with a primitive value (MCP's are booleans and a title), bounded. */
function storedAnnotations(raw: unknown): Record<string, string | number | boolean> | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const kept: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(raw).slice(0, MAX_ANNOTATIONS)) {
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
      kept[key.slice(0, MAX_TITLE)] = value;
    else if (typeof value === 'string') kept[key.slice(0, MAX_TITLE)] = value.slice(0, MAX_TITLE);
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The tool list entry as stored: schemas forced to objects, sizes bounded; the server's `title`,
 * `outputSchema` and annotations kept (an output schema past the budget is dropped: a wrong one
 * would make clients reject the results).
 */
export function storedTool(
  tool: {
    name: string;
    title?: unknown;
    description?: string;
    inputSchema?: unknown;
    outputSchema?: unknown;
    annotations?: { readOnlyHint?: boolean } & Record<string, unknown>;
  },
  budget: { bytes: number },
): ConnectorTool {
  const input = objectSchema(tool.inputSchema);
  const schema = (input && withinBudget(input, budget)) ?? { type: 'object' };
  const output = objectSchema(tool.outputSchema);
  const outputSchema = output && withinBudget(output, budget);
  const annotations = storedAnnotations(tool.annotations);
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' ? { title: tool.title.slice(0, MAX_TITLE) } : {}),
    description: (tool.description ?? '').slice(0, MAX_DESCRIPTION),
    inputSchema: schema,
    ...(outputSchema
      ? { outputSchema: outputSchema as ConnectorTool['inputSchema'] & { type: 'object' } }
      : {}),
    readOnly: tool.annotations?.readOnlyHint === true,
    ...(annotations ? { annotations } : {}),
  };
}

/** The result as the router returns it: `{content, structuredContent?, isError}`. */
export function normalizeResult(raw: Record<string, unknown>): ConnectorCallResult {
  let content: unknown[];
  if (Array.isArray(raw.content)) content = raw.content;
  else if ('toolResult' in raw) content = [{ type: 'text', text: JSON.stringify(raw.toolResult) }];
  else content = [];
  const structured = raw.structuredContent;
  return {
    content,
    ...(structured && typeof structured === 'object' && !Array.isArray(structured)
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
    isError: raw.isError === true,
  };
}
