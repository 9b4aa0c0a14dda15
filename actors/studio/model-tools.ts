import type { ModelToolSpec } from './llm-client';
import type { StudioToolDefinition } from './studio-commands';

/** Tools offered to the model at most (OpenAI accepts 128; fewer keep the prompt small). */
export const MAX_MODEL_TOOLS = 64;
/** JSON size of all the offered tools' descriptions and schemas, in characters. */
const MAX_MODEL_TOOLS_CHARS = 96 * 1024;
const MAX_DESCRIPTION_CHARS = 1024;

/** The tools offered to the model, and which tool each function name stands for. */
export interface ModelTools {
  specs: ModelToolSpec[];
  /** Function name (as offered) → the tool's name for the router (`mem_get`, `mcp.github.search`). */
  byFunction: Map<string, string>;
}

/**
 * A function name the model accepts (`^[A-Za-z0-9_-]{1,64}$`): a built-in tool by its bare name
 * (`platform.mem_get` → `mem_get`), a connector tool with its dots as `__`
 * (`mcp.github.search` → `mcp__github__search`). Undefined when it does not fit.
 */
export function functionNameOf(tool: string): string | undefined {
  const name = tool.replace(/^platform\./, '').replace(/\./g, '__');
  return /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : undefined;
}

/**
 * The tools the caller may call (`tools list`), as OpenAI `tools` entries with their JSON Schemas:
 * built-in tools first, then connector tools, at most MAX_MODEL_TOOLS and MAX_MODEL_TOOLS_CHARS
 * (the rest is left out).
 */
export function modelToolsOf(definitions: readonly StudioToolDefinition[]): ModelTools {
  const specs: ModelToolSpec[] = [];
  const byFunction = new Map<string, string>();
  let chars = 0;
  const ordered = [
    ...definitions.filter((d) => d.name.startsWith('platform.')),
    ...definitions.filter((d) => !d.name.startsWith('platform.')),
  ];
  for (const definition of ordered) {
    if (specs.length >= MAX_MODEL_TOOLS) break;
    const name = functionNameOf(definition.name);
    if (!name || byFunction.has(name)) continue;
    const spec: ModelToolSpec = {
      type: 'function',
      function: {
        name,
        description: definition.description.slice(0, MAX_DESCRIPTION_CHARS),
        parameters: definition.inputSchema,
      },
    };
    const size = JSON.stringify(spec).length;
    if (chars + size > MAX_MODEL_TOOLS_CHARS) continue;
    chars += size;
    specs.push(spec);
    byFunction.set(name, definition.name.replace(/^platform\./, ''));
  }
  return { specs, byFunction };
}
