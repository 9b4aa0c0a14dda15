import { z } from 'zod';
import { PLATFORM_TOOLS } from '../../../../actors/tools/platform-tools';
import { defineTool } from '../../../../actors/tools/router/tool-declaration';
import { isUnknownToolError, ToolRegistry } from '../../../../actors/tools/router/tool-registry';
import { BUILTIN_PRIMITIVES } from '../../../../schemas/tools/primitives';

describe('ToolRegistry over PLATFORM_TOOLS', () => {
  const registry = new ToolRegistry(PLATFORM_TOOLS);

  it('serves exactly the built-in primitives an agent is allowed by default (none promised and missing)', () => {
    const served = registry.entries.map((e) => e.name.slice('platform.'.length)).sort();
    expect(served).toEqual([...BUILTIN_PRIMITIVES].sort());
  });

  it('lists every tool once as platform.<name>, sorted by name', () => {
    const names = registry.entries.map((e) => e.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(registry.size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^platform\./);
      expect(BUILTIN_PRIMITIVES).toContain(name.slice('platform.'.length));
    }
    for (const name of [
      'mem_set',
      'mem_get',
      'mem_delete',
      'mem_list',
      'mem_incr',
      'mem_expire',
      'proc_execute',
    ]) {
      expect(names).toContain(`platform.${name}`);
    }
    for (const name of ['events_publish', 'events_subscribe', 'events_unsubscribe', 'events_list_topics']) {
      expect(names).toContain(`platform.${name}`);
    }
  });

  it('gives every tool an object input schema (else MCP clients reject the whole list) and a description', () => {
    for (const entry of registry.entries) {
      expect(entry.inputSchema.type).toBe('object');
      expect(entry.inputSchema.$schema).toBeUndefined();
      expect(entry.description.length).toBeGreaterThan(10);
    }
    expect(JSON.parse(registry.listingJson)).toEqual({ tools: registry.entries });
    expect(registry.mcpTools.map((t) => t.name)).toEqual(registry.entries.map((e) => e.name));
  });

  type JsonSchema = {
    required: string[];
    properties: Record<string, { pattern?: string; maximum?: number }>;
  };
  const schemaOf = (name: string) =>
    registry.entries.find((e) => e.name === name)!.inputSchema as unknown as JsonSchema;

  it('describes the input side: defaults are optional, required fields are required', () => {
    const memSet = schemaOf('platform.mem_set');
    expect(memSet.required).toEqual(['key', 'value']);
    expect(memSet.properties.key.pattern).toBe('^[a-zA-Z0-9_:.\\-/]+$');
    expect(memSet.properties.ttl.maximum).toBe(30 * 24 * 3600);
    const proc = schemaOf('platform.proc_execute');
    expect(proc.required).toEqual(['language', 'code']);
    expect(registry.mcpTools.find((t) => t.name === 'platform.mem_get')!.annotations).toEqual({
      readOnlyHint: true,
    });
    expect(registry.mcpTools.find((t) => t.name === 'platform.mem_set')!.annotations).toEqual({
      readOnlyHint: false,
    });
  });

  it('resolves bare, platform., connector and skill names; unknown names are 404 unknown_tool', () => {
    expect(registry.resolve('mem_set')).toMatchObject({ kind: 'platform', name: 'mem_set' });
    expect(registry.resolve('platform.mem_set')).toMatchObject({ kind: 'platform', name: 'mem_set' });
    expect(registry.resolve('mcp.github.create_issue')).toEqual({
      kind: 'connector',
      name: 'mcp.github.create_issue',
    });
    expect(registry.resolve('create_issue', 'github')).toEqual({
      kind: 'connector',
      name: 'mcp.github.create_issue',
    });
    expect(registry.resolve('mem_get', 'github')).toMatchObject({ kind: 'platform', name: 'mem_get' });
    expect(registry.resolve('platform.skill.pdf.extract')).toEqual({
      kind: 'skill',
      name: 'platform.skill.pdf.extract',
    });
    for (const name of ['nope', 'platform.nope', 'mcp.x', 'MEM_SET', 'platform.', '']) {
      let caught: unknown;
      try {
        registry.resolve(name);
      } catch (err) {
        caught = err;
      }
      expect(isUnknownToolError(caught)).toBe(true);
    }
  });
});

describe('ToolRegistry checks declarations at boot', () => {
  const run = () => true;
  it('refuses names outside BUILTIN_PRIMITIVES, duplicates and non-object inputs', () => {
    const tool = defineTool({ name: 'mem_set', description: 'x', input: z.object({}), mutating: false, run });
    expect(() => new ToolRegistry([{ ...tool, name: 'not_a_primitive' as 'mem_set' }])).toThrow(
      /BUILTIN_PRIMITIVES/,
    );
    expect(() => new ToolRegistry([tool, tool])).toThrow(/twice/);
    const notObject = { ...tool, input: z.string() as unknown as z.ZodObject };
    expect(() => new ToolRegistry([notObject])).toThrow(/object/);
  });
});
