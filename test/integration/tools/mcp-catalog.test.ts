import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

/** MCP resources, prompts, completion and logging/setLevel (actors/tools/router/mcp-catalog.ts). */

let h: RouterHarness;

beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'catalog-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const rpc = (token: string, body: unknown) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send(body as object);

async function write(client: Client, path: string, input: Record<string, unknown>) {
  const res = await client.callTool({ name: 'fs_write', arguments: { path, ...input } });
  expect(res.isError).toBe(false);
}

describe('MCP resources: the caller’s governed files', () => {
  it('lists, reads (text and blob) and templates the files; other agents see none of them', async () => {
    const { token } = await h.agent();
    const client = await connect(token);
    const other = await connect((await h.agent()).token);
    try {
      await write(client, 'notes/hello world.txt', { content: 'hi there' });
      await write(client, 'bin/data.bin', { data: Buffer.from([0, 1, 2, 255]).toString('base64') });

      const { resources } = await client.listResources();
      expect(resources).toEqual([
        { uri: 'file:///bin/data.bin', name: 'bin/data.bin', mimeType: 'application/octet-stream', size: 4 },
        {
          uri: 'file:///notes/hello%20world.txt',
          name: 'notes/hello world.txt',
          mimeType: 'text/plain',
          size: 8,
        },
      ]);

      const text = await client.readResource({ uri: 'file:///notes/hello%20world.txt' });
      expect(text.contents).toEqual([
        { uri: 'file:///notes/hello%20world.txt', mimeType: 'text/plain', text: 'hi there' },
      ]);
      const blob = await client.readResource({ uri: 'file:///bin/data.bin' });
      expect(blob.contents).toEqual([
        { uri: 'file:///bin/data.bin', mimeType: 'application/octet-stream', blob: 'AAEC/w==' },
      ]);

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'file:///{+path}', name: 'file' }),
      ]);

      // Another agent's space is its own: an empty list, and the same URI is not found.
      expect((await other.listResources()).resources).toEqual([]);
      const foreign = other.readResource({ uri: 'file:///notes/hello%20world.txt' });
      await expect(foreign).rejects.toBeInstanceOf(McpError);
      await expect(foreign).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: 'https://example.com/x' })).rejects.toMatchObject({
        code: -32002,
      });
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('pages the list with nextCursor', async () => {
    const { token } = await h.agent();
    const client = await connect(token);
    try {
      for (let i = 0; i < 105; i++)
        await write(client, `many/f${String(i).padStart(3, '0')}.txt`, { content: `${i}` });
      const first = await client.listResources();
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await client.listResources({ cursor: first.nextCursor });
      const all = [...first.resources, ...second.resources].map((r) => r.name);
      expect(all).toHaveLength(105);
      expect(new Set(all).size).toBe(105);
      expect(second.nextCursor).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('follows the tool permissions: without fs_read a read is refused with the reason', async () => {
    const { token } = await h.agent({ allowedTools: ['fs_list'] });
    const res = await rpc(token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri: 'file:///a.txt' },
    });
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/allowedTools/) });
  });
});

describe('MCP prompts and completion', () => {
  it('lists the prompts, gets one with the file embedded, and completes file paths', async () => {
    const { token } = await h.agent();
    const client = await connect(token);
    try {
      await write(client, 'docs/plan.md', { content: '# Plan\n1. ship' });
      await write(client, 'docs/notes.md', { content: 'n' });
      await write(client, 'readme.md', { content: 'r' });

      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['summarize_file', 'edit_file']);

      const got = await client.getPrompt({
        name: 'edit_file',
        arguments: { path: 'docs/plan.md', instruction: 'add step 2' },
      });
      expect(got.messages).toEqual([
        { role: 'user', content: { type: 'text', text: expect.stringContaining('add step 2') } },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'file:///docs/plan.md', mimeType: 'text/markdown', text: '# Plan\n1. ship' },
          },
        },
      ]);
      await expect(
        client.getPrompt({ name: 'edit_file', arguments: { path: 'docs/plan.md' } }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(
        client.getPrompt({ name: 'summarize_file', arguments: { path: 'missing.md' } }),
      ).rejects.toMatchObject({
        code: -32602,
      });

      const byPrompt = await client.complete({
        ref: { type: 'ref/prompt', name: 'summarize_file' },
        argument: { name: 'path', value: 'docs/p' },
      });
      expect(byPrompt.completion).toEqual({ values: ['docs/plan.md'], hasMore: false });
      const byTemplate = await client.complete({
        ref: { type: 'ref/resource', uri: 'file:///{+path}' },
        argument: { name: 'path', value: '' },
      });
      expect(byTemplate.completion.values).toEqual(['docs/notes.md', 'docs/plan.md', 'readme.md']);
      const nowhere = await client.complete({
        ref: { type: 'ref/prompt', name: 'summarize_file' },
        argument: { name: 'path', value: 'no/such/dir/x' },
      });
      expect(nowhere.completion.values).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('logging/setLevel accepts the MCP levels and refuses others', async () => {
    const { token } = await h.agent();
    const client = await connect(token);
    try {
      await expect(client.setLoggingLevel('warning')).resolves.toEqual({});
    } finally {
      await client.close();
    }
    const bad = await rpc(token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'logging/setLevel',
      params: { level: 'loud' },
    });
    expect(bad.body.error.code).toBe(-32602);
  });
});
