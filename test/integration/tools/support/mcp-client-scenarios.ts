import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { eventually } from '../../../support/async';
import {
  connect,
  createTask2026,
  routes,
  writeFile,
  type ClientKind,
  type Connected,
} from './mcp-sdk-clients';

/**
 * What an MCP host does with `/mcp` through an official SDK client, as `it` blocks shared by the
 * in-process and the RabbitMQ suites: discover (2026) or initialize (2025), the tool list (cached
 * by the v2 client for its `ttlMs`), a call reporting progress, a call the client aborts (its route
 * record says `cancelled`), a task that outlives its client and is fetched by a new one, files as
 * resources, and a connector's prompt federated as `mcp.<slug>.<prompt>`.
 */
export interface ScenarioTarget {
  /** The front door the clients connect to. */
  url: string;
  /** The front door of the client that fetches a task later (another node over RabbitMQ). */
  laterUrl: string;
  /** An account's bearer token (tasks need an account; the connector is its own). */
  token: string;
  /** A URL that answers slowly (startSlowUpstream), loopback HTTP being allowed. */
  slowUrl: string;
  /** The slug of the account's connector to the test MCP server (its prompt `greet`). */
  connector: string;
  /** Whether a tool call is running where the calls run (the sandbox's node). */
  busy(): boolean;
}

const SPIN = { language: 'javascript', code: 'for (;;) {}', timeout: 30_000 };
const SHORT = {
  language: 'javascript',
  code: 'const t = Date.now(); while (Date.now() - t < 300) {} console.log(6 * 7)',
  timeout: 30_000,
};

type ProgressNote = { progress: number; total?: number; message?: string };
type CallOptions = { onprogress?: (p: ProgressNote) => void; signal?: AbortSignal; timeout?: number };

/** `tools/call` through either client (v1 takes a result schema before the options). */
function callTool(c: Connected, name: string, args: Record<string, unknown>, options: CallOptions = {}) {
  return c.kind === 'v1'
    ? (c.client as ClientV1).callTool({ name, arguments: args }, CallToolResultSchema, options)
    : (c.client as ClientV2).callTool({ name, arguments: args }, options);
}

const loose = z.looseObject({});

export function clientScenarios(kind: ClientKind, target: () => ScenarioTarget): void {
  const open: Connected[] = [];
  const client = async (url = target().url, options: { tasks?: boolean } = {}) => {
    const c = await connect(kind, url, target().token, options);
    open.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close().catch(() => undefined);
  });
  const modern = kind !== 'v1';

  it(`${modern ? 'discovers' : 'initializes'} and lists the tools${modern ? ' (cached for ttlMs)' : ''}`, async () => {
    const c = await client();
    if (modern) {
      const v2 = c.client as ClientV2;
      expect(v2.getProtocolEra()).toBe('modern');
      expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(c.posted[0]).toBe('server/discover');
      expect(c.posted).not.toContain('initialize');
      expect(v2.getServerVersion()?.name).toBe('agent-runtime-service');
      expect(v2.getDiscoverResult()?.supportedVersions).toContain('2025-11-25');
    } else {
      expect(c.posted[0]).toBe('initialize');
      expect(c.client.getServerVersion()?.name).toBe('agent-runtime-service');
      expect(c.client.getServerCapabilities()?.tasks).toBeDefined();
    }
    expect(c.client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    const first = await c.client.listTools();
    const names = first.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['platform.proc_execute', `mcp.${target().connector}.echo`]),
    );
    const again = await c.client.listTools();
    expect(again.tools.map((t) => t.name)).toEqual(names);
    // The v2 client keeps the list for its ttlMs (60 s): the second listing asked nobody.
    const asked = c.posted.filter((m) => m === 'tools/list').length;
    if (modern) {
      expect((first as { ttlMs?: number }).ttlMs).toBe(60_000);
      expect(asked).toBe(1);
    } else expect(asked).toBe(2);
  });

  it('calls a tool that reports progress, and gets its result', async () => {
    const c = await client();
    const notes: ProgressNote[] = [];
    const result = await callTool(
      c,
      'net_http_get',
      { url: target().slowUrl, allowHttp: true },
      {
        onprogress: (p) => void notes.push(p),
        timeout: 60_000,
      },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 200, bytes: 4000 });
    // started, then the bytes received as they came (growing), toward the announced length.
    expect(notes.length).toBeGreaterThanOrEqual(3);
    expect(notes[0]).toMatchObject({ progress: 0, message: 'net_http_get: started' });
    for (let i = 1; i < notes.length; i++) expect(notes[i].progress).toBeGreaterThan(notes[i - 1].progress);
    expect(notes.slice(1).some((n) => n.total === 4000)).toBe(true);
  });

  it('a call the client aborts stops, and its route record says cancelled', async () => {
    const c = await client();
    const before = (await routes(target().url, target().token)).filter(
      (r) => r.status === 'cancelled',
    ).length;
    const abort = new AbortController();
    const call = callTool(c, 'proc_execute', SPIN, { signal: abort.signal, timeout: 60_000 });
    const settled = call.then(
      () => 'answered',
      () => 'rejected',
    );
    await eventually(() => target().busy(), 20_000);
    abort.abort('the user pressed stop');
    expect(await settled).toBe('rejected');
    await eventually(() => !target().busy(), 20_000);
    await eventually(async () => {
      const cancelled = (await routes(target().url, target().token)).filter(
        (r) => r.status === 'cancelled' && r.primitive === 'proc_execute',
      );
      return cancelled.length > before;
    }, 20_000);
  });

  it('a task outlives its client and is fetched later by a new one', async () => {
    const first = await client(target().url, { tasks: true });
    let taskId: string;
    if (modern) {
      // The Tasks extension's requester frames this call itself (see createTask2026).
      ({ taskId } = await createTask2026(target().url, target().token, 'proc_execute', SHORT));
    } else {
      const created = await (first.client as ClientV1).request(
        { method: 'tools/call', params: { name: 'proc_execute', arguments: SHORT, task: { ttl: 600_000 } } },
        CreateTaskResultSchema,
      );
      taskId = created.task.taskId;
      expect(created.task.status).toBe('working');
    }
    expect(taskId).toMatch(/^exe_/);
    await first.close();

    const later = await client(target().laterUrl, { tasks: true });
    if (modern) {
      const v2 = later.client as ClientV2;
      const get = () => v2.request({ method: 'tasks/get', params: { taskId } } as never, loose);
      const done = await eventually(async () => {
        const task = (await get()) as { status: string; result?: { structuredContent?: unknown } };
        return task.status === 'completed' ? task : undefined;
      }, 30_000);
      expect(JSON.stringify(done.result?.structuredContent)).toContain('42');
    } else {
      const v1 = later.client as ClientV1;
      const result = await v1.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.structuredContent)).toContain('42');
      expect((await v1.experimental.tasks.getTask(taskId)).status).toBe('completed');
    }
  });

  it('lists and reads the caller’s files as resources', async () => {
    const path = `sdk/${kind}/notes.txt`;
    await writeFile(target().url, target().token, path, `hello from ${kind}`);
    const c = await client();
    const uri = `file:///sdk/${kind}/notes.txt`;
    const listed = await c.client.listResources();
    expect(listed.resources).toContainEqual(
      expect.objectContaining({ uri, name: path, mimeType: 'text/plain' }),
    );
    const read = await c.client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: `hello from ${kind}` }]);
    const templates = await c.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('file:///{+path}');
  });

  it('lists and gets a connector’s prompt federated as mcp.<slug>.<prompt>', async () => {
    const c = await client();
    const name = `mcp.${target().connector}.greet`;
    const listed = await c.client.listPrompts();
    expect(listed.prompts).toContainEqual(expect.objectContaining({ name, title: 'Greet' }));
    const got = await c.client.getPrompt({ name, arguments: { name: 'Ada', language: 'french' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Greet Ada in french' } }]);
  });
}
