import { eventually, startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * MCP tasks on executions (actors/tools/router/mcp-tasks.ts, src/http/mcp/task-methods.ts): a
 * `tools/call` as a task is a persisted TOOL_EXECUTION; `tasks/*` read it back, in the 2025-11-25
 * form and the 2026-07-28 Tasks extension. Through the real HTTP front door and the sandbox.
 */

let h: RouterHarness;

beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const TASKS_EXT = 'io.modelcontextprotocol/tasks';
const caps = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXT]: {} } } };

let ids = 0;
const rpc = (token: string, method: string, params: Record<string, unknown>, version?: string) => {
  const req = h.http().post('/mcp').set('Authorization', `Bearer ${token}`).set('Accept', 'application/json');
  if (version) req.set('MCP-Protocol-Version', version);
  return req.send({ jsonrpc: '2.0', id: ++ids, method, params });
};

const sixBySeven = { language: 'javascript', code: 'console.log(6 * 7)' };
const spin = { language: 'javascript', code: 'while (true) {}', timeout: 30_000 };

describe('MCP tasks, 2025-11-25 form', () => {
  it('runs a call as a task: created, listed, fetched, its result read, and it is an execution', async () => {
    const { token } = await h.account();
    const init = await rpc(token, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
    expect(init.body.result.capabilities.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const list = await rpc(token, 'tools/list', {});
    const byName = new Map(
      (list.body.result.tools as Array<{ name: string; execution?: unknown }>).map((t) => [t.name, t]),
    );
    expect(byName.get('platform.proc_execute')?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get('platform.mem_get')?.execution).toBeUndefined();

    const created = await rpc(token, 'tools/call', {
      name: 'proc_execute',
      arguments: sixBySeven,
      task: { ttl: 600_000 },
    });
    expect(created.status).toBe(200);
    const task = created.body.result.task;
    expect(task).toMatchObject({ status: 'working', ttl: 600_000, pollInterval: 1000 });
    expect(task.taskId).toMatch(/^exe_/);

    // tasks/result waits for the end and answers the tool's CallToolResult.
    const result = await rpc(token, 'tasks/result', { taskId: task.taskId });
    expect(result.body.result.isError).toBe(false);
    expect(JSON.stringify(result.body.result.structuredContent)).toContain('42');
    expect(result.body.result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId });

    const got = await rpc(token, 'tasks/get', { taskId: task.taskId });
    expect(got.body.result).toMatchObject({ taskId: task.taskId, status: 'completed' });
    const listed = await rpc(token, 'tasks/list', {});
    expect(listed.body.result.tasks.map((t: { taskId: string }) => t.taskId)).toContain(task.taskId);

    // The same task is an execution of the account.
    const exe = await h.http().get(`/api/executions/${task.taskId}`).set('Authorization', `Bearer ${token}`);
    expect(exe.status).toBe(200);
    expect(exe.body.execution).toMatchObject({
      type: 'TOOL_EXECUTION',
      sourceType: 'mcp',
      status: 'COMPLETED',
    });
    expect(JSON.stringify(exe.body.execution.result)).toContain('42');

    // Its logs are a read-only resource, listed first, and nobody else's.
    const uri = `execution://${task.taskId}/logs`;
    const listedResources = await rpc(token, 'resources/list', {});
    expect(listedResources.body.result.resources[0]).toMatchObject({ uri, mimeType: 'text/plain' });
    const logs = await rpc(token, 'resources/read', { uri });
    expect(logs.body.result.contents[0].text).toMatch(
      /INFO Calling proc_execute\n.*INFO proc_execute answered/s,
    );
    const other = await h.account();
    expect((await rpc(other.token, 'resources/read', { uri })).body.error.code).toBe(-32002);
    const templates = await rpc(token, 'resources/templates/list', {});
    expect(templates.body.result.resourceTemplates.map((t: { name: string }) => t.name)).toContain(
      'execution-logs',
    );
  });

  it('tasks/cancel stops the running call now; the execution and the route record say cancelled', async () => {
    const { token } = await h.account();
    const created = await rpc(token, 'tools/call', { name: 'proc_execute', arguments: spin, task: {} });
    const { taskId } = created.body.result.task;
    await eventually(() => h.runtime.work.inFlight() > 0);
    const cancelled = await rpc(token, 'tasks/cancel', { taskId });
    expect(cancelled.body.result).toMatchObject({ taskId, status: 'cancelled', ttl: null });
    // The sandbox stopped the loop at once (a plain execution cancel would let the step finish).
    await eventually(() => h.runtime.work.inFlight() === 0);
    const again = await rpc(token, 'tasks/cancel', { taskId });
    expect(again.body.error.code).toBe(-32602);
    const exe = await h.http().get(`/api/executions/${taskId}`).set('Authorization', `Bearer ${token}`);
    expect(exe.body.execution.status).toBe('CANCELLED');
    await eventually(async () => {
      const routes = await h.http().get('/api/ffp/routes').set('Authorization', `Bearer ${token}`);
      return routes.body.routes.some(
        (r: { primitive: string; status: string }) =>
          r.primitive === 'proc_execute' && r.status === 'cancelled',
      );
    });
  });

  it('panic stops a task; expired, foreign and unknown tasks are not found; short tools do not run as tasks', async () => {
    const { token } = await h.account();
    const other = await h.account();
    const created = await rpc(token, 'tools/call', { name: 'proc_execute', arguments: spin, task: {} });
    const { taskId } = created.body.result.task;
    await eventually(() => h.runtime.work.inFlight() > 0);
    expect((await rpc(other.token, 'tasks/get', { taskId })).body.error.code).toBe(-32602);
    const panic = await h.http().post('/api/panic').set('Authorization', `Bearer ${token}`).send({});
    expect(panic.status).toBe(200);
    await eventually(
      async () => (await rpc(token, 'tasks/get', { taskId })).body.result?.status === 'cancelled',
    );
    await eventually(() => h.runtime.work.inFlight() === 0);
    expect((await rpc(token, 'tasks/get', { taskId })).body.result.statusMessage).toBe('Cancelled by panic');
    await h.http().delete('/api/panic').set('Authorization', `Bearer ${token}`).send({});

    const short = await rpc(token, 'tools/call', {
      name: 'proc_execute',
      arguments: sixBySeven,
      task: { ttl: 1 },
    });
    const shortId = short.body.result.task.taskId;
    await new Promise((r) => setTimeout(r, 20));
    const gone = await rpc(token, 'tasks/get', { taskId: shortId });
    expect(gone.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/expired/) });

    expect((await rpc(token, 'tasks/get', { taskId: 'exe_nope' })).body.error.code).toBe(-32602);
    const memTask = await rpc(token, 'tools/call', { name: 'mem_get', arguments: { key: 'k' }, task: {} });
    expect(memTask.body.error.code).toBe(-32601);
  });

  it('a self-registered agent (no account) has no tasks', async () => {
    const { token } = await h.agent();
    const init = await rpc(token, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
    expect(init.body.result.capabilities.tasks).toBeUndefined();
    expect((await rpc(token, 'tasks/list', {})).body.error.code).toBe(-32601);
  });
});

describe('MCP tasks, 2026-07-28 Tasks extension', () => {
  const V = '2026-07-28';

  it('a client that declares the extension gets a task for a long tool and polls tasks/get for the result', async () => {
    const { token } = await h.account();
    const discover = await rpc(token, 'server/discover', {}, V);
    expect(discover.body.result.capabilities.extensions).toEqual({ [TASKS_EXT]: {} });
    expect(discover.body.result.capabilities.tasks).toBeUndefined();

    const created = await rpc(
      token,
      'tools/call',
      { name: 'proc_execute', arguments: sixBySeven, _meta: caps },
      V,
    );
    expect(created.body.result).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: null,
      pollIntervalMs: 1000,
    });
    const { taskId } = created.body.result;
    let last: { status: string; result?: { structuredContent?: unknown } } | undefined;
    await eventually(async () => {
      last = (await rpc(token, 'tasks/get', { taskId, _meta: caps }, V)).body.result;
      return last?.status === 'completed';
    });
    expect(last).toMatchObject({ resultType: 'complete', status: 'completed' });
    expect(JSON.stringify(last!.result!.structuredContent)).toContain('42');

    // No tasks/result in this form; the extension answers only clients that declare it.
    expect((await rpc(token, 'tasks/result', { taskId, _meta: caps }, V)).body.error.code).toBe(-32601);
    expect((await rpc(token, 'tasks/get', { taskId }, V)).body.error.code).toBe(-32003);
    // A client without the extension gets the plain result of the same tool.
    const plain = await rpc(token, 'tools/call', { name: 'proc_execute', arguments: sixBySeven }, V);
    expect(plain.body.result.resultType).toBe('complete');
    expect(JSON.stringify(plain.body.result.structuredContent)).toContain('42');
  });

  it('a failing tool is a completed task whose result is a tool error; tasks/cancel acknowledges with {}', async () => {
    const { token } = await h.account();
    const bad = await rpc(
      token,
      'tools/call',
      { name: 'net_http_get', arguments: { url: 'http://127.0.0.1:1/' }, _meta: caps },
      V,
    );
    const failedId = bad.body.result.taskId;
    let last: { status: string; result?: { isError: boolean } } | undefined;
    await eventually(async () => {
      last = (await rpc(token, 'tasks/get', { taskId: failedId, _meta: caps }, V)).body.result;
      return last?.status !== 'working';
    });
    expect(last).toMatchObject({ status: 'completed', result: { isError: true } });

    const created = await rpc(token, 'tools/call', { name: 'proc_execute', arguments: spin, _meta: caps }, V);
    const { taskId } = created.body.result;
    const ack = await rpc(token, 'tasks/cancel', { taskId, _meta: caps }, V);
    expect(ack.body.result).toEqual({ resultType: 'complete' });
    await eventually(
      async () =>
        (await rpc(token, 'tasks/get', { taskId, _meta: caps }, V)).body.result.status === 'cancelled',
    );
    await eventually(() => h.runtime.work.inFlight() === 0);
  });
});
