import { bearer, startExecHarness, type ExecHarness } from '../executions/support/harness';

jest.setTimeout(60_000);

describe('POST /api/studio/command', () => {
  let h: ExecHarness;
  let token: string;
  const command = (body: Record<string, unknown>, t = token) =>
    h.http().post('/api/studio/command').set(bearer(t)).send(body);

  beforeAll(async () => {
    h = await startExecHarness();
    token = await h.account();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers help and read-only listings at once', async () => {
    const help = await command({ command: 'help' }).expect(200);
    expect(help.body.kind).toBe('help');
    expect(help.body.result.commands.map((c: { usage: string }) => c.usage)).toContain('tools list');

    const tools = await command({ command: 'tools   list' }).expect(200);
    expect(tools.body).toMatchObject({ kind: 'result', snippet: 'GET /tools' });
    const names = tools.body.result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('platform.mem_get');
    expect(
      tools.body.result.tools.find((t: { name: string }) => t.name === 'platform.mem_set').readOnly,
    ).toBe(false);

    const mcp = await command({ command: 'mcp list' }).expect(200);
    expect(mcp.body).toMatchObject({ kind: 'result', result: { connectors: [] } });

    const status = await command({ command: 'status', advancedMode: true }).expect(200);
    expect(status.body).toMatchObject({ kind: 'result', result: { connectors: 0, advancedMode: true } });
    expect(status.body.result.tools).toBeGreaterThan(0);

    const search = await command({ command: 'skills search pdf tools' }).expect(200);
    expect(search.body).toMatchObject({ kind: 'result', result: { skills: [], total: 0 } });
    expect(search.body.summary).toBe('0 skills match "pdf tools"');
  });

  it('refuses shell metacharacters outside the payload, bad syntax and unknown commands with kind error', async () => {
    for (const bad of [
      'tools list; rm -rf /',
      'tools list | cat',
      'tool run mem_get && x',
      'status $(id)',
      'help `id`',
      'tools list > out',
      'tools\nlist',
      'skills search a\\b',
      'skills search {x}',
    ]) {
      const res = await command({ command: bad }).expect(200);
      expect(res.body).toMatchObject({ kind: 'error', result: { code: 'SYNTAX_ERROR' } });
    }
    const unknown = await command({ command: 'deploy everything' }).expect(200);
    expect(unknown.body).toMatchObject({ kind: 'error' });
    expect(unknown.body.summary).toMatch(/Unknown command/);
    const badJson = await command({ command: 'tool run mem_get --json {nope' }).expect(200);
    expect(badJson.body.summary).toMatch(/not valid JSON/);
    const notObject = await command({ command: 'tool run mem_get --json [1]' }).expect(200);
    expect(notObject.body.summary).toMatch(/JSON object/);
    const extra = await command({ command: 'tools list --json {}' }).expect(200);
    expect(extra.body.kind).toBe('error');
    const unknownTool = await command({ command: 'tool run nope_tool --json {}' }).expect(200);
    expect(unknownTool.body).toMatchObject({ kind: 'error', result: { code: 'NOT_FOUND' } });
  });

  it('answers 400 for a malformed body and 401 without credentials', async () => {
    await command({}).expect(400);
    await command({ command: 42 }).expect(400);
    await command({ command: 'help', advancedMode: 'yes' }).expect(400);
    await h.http().post('/api/studio/command').send({ command: 'help' }).expect(401);
  });

  it('runs a read-only tool at once, as an execution with its log', async () => {
    const res = await command({ command: 'tool run platform.mem_get --json {"key": "absent"}' }).expect(200);
    expect(res.body).toMatchObject({ kind: 'result', execution: { status: 'COMPLETED' } });
    expect(res.body.snippet).toBe('POST /mcp {"tool":"platform.mem_get","input":{"key":"absent"}}');
    const { execution, logs } = await h.get(token, res.body.execution.id);
    expect(execution).toMatchObject({ type: 'STUDIO_COMMAND', sourceType: 'studio', status: 'COMPLETED' });
    expect(execution.title).toBe('tool run platform.mem_get --json {"key":"absent"}');
    expect(logs.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'Studio command: tool run platform.mem_get --json {"key":"absent"}',
        'mem_get answered',
      ]),
    );
  });

  it('previews a mutating tool, runs it only with the confirmToken, once', async () => {
    const cmd = 'tool run mem_set --json {"key": "studio:k", "value": 7}';
    const preview = await command({ command: cmd }).expect(200);
    expect(preview.body).toMatchObject({ kind: 'preview', expiresIn: 300 });
    expect(preview.body.execution).toBeUndefined();
    const confirmToken = preview.body.confirmToken as string;
    expect(confirmToken).toMatch(/^sct_/);

    // Nothing ran: the key is not set.
    const before = await command({ command: 'tool run mem_get --json {"key":"studio:k"}' }).expect(200);
    expect(before.body.result).toMatchObject({ found: false });

    // Another command with this token: refused (and the token is not spent by it).
    const other = await command({
      command: 'tool run mem_set --json {"key": "studio:k", "value": 8}',
      confirmToken,
    });
    expect(other.body).toMatchObject({ kind: 'error', result: { code: 'INVALID_CONFIRM_TOKEN' } });
    // Another caller with this token: refused.
    const stranger = await h.account();
    const foreign = await command({ command: cmd, confirmToken }, stranger).expect(200);
    expect(foreign.body).toMatchObject({ kind: 'error', result: { code: 'INVALID_CONFIRM_TOKEN' } });
    // Another mode: refused.
    const mode = await command({ command: cmd, confirmToken, advancedMode: true }).expect(200);
    expect(mode.body.kind).toBe('error');

    // The same command, spelled with other spaces, with the token: runs.
    const run = await command({
      command: 'tool  run mem_set --json {"key":"studio:k","value":7}',
      confirmToken,
    }).expect(200);
    expect(run.body).toMatchObject({ kind: 'result', execution: { status: 'COMPLETED' } });
    const after = await command({ command: 'tool run mem_get --json {"key":"studio:k"}' }).expect(200);
    expect(after.body.result).toMatchObject({ found: true, value: 7 });

    // Twice: refused.
    const again = await command({ command: cmd, confirmToken }).expect(200);
    expect(again.body).toMatchObject({ kind: 'error', result: { code: 'INVALID_CONFIRM_TOKEN' } });
    // A made-up token: refused.
    const madeUp = await command({ command: cmd, confirmToken: 'sct_xxx' }).expect(200);
    expect(madeUp.body.kind).toBe('error');
  });

  it('reports a failing tool as kind error with the failed execution', async () => {
    const cmd = 'tool run mem_set --json {"key": "", "value": 1}';
    const { body } = await command({ command: cmd }).expect(200);
    const res = await command({ command: cmd, confirmToken: body.confirmToken }).expect(200);
    expect(res.body).toMatchObject({
      kind: 'error',
      execution: { status: 'FAILED' },
      result: { code: 'VALIDATION_ERROR' },
    });
  });

  it('needs advancedMode for advanced run, previews, and runs javascript in the sandbox', async () => {
    const code = 'const xs = [1, 2, 3]; xs.map((x) => x * 2).join(";") + " {ok} | $HOME"';
    const denied = await command({ command: `advanced run javascript --code ${code}` }).expect(200);
    expect(denied.body).toMatchObject({ kind: 'error', result: { code: 'PERMISSION_DENIED' } });
    const python = await command({
      command: 'advanced run python --code print(1)',
      advancedMode: true,
    }).expect(200);
    expect(python.body.summary).toMatch(/javascript only/);

    const preview = await command({
      command: `advanced run javascript --code ${code}`,
      advancedMode: true,
    }).expect(200);
    expect(preview.body).toMatchObject({
      kind: 'preview',
      result: { tool: 'proc_execute', input: { code } },
    });
    // The token was issued for advancedMode: true.
    const noMode = await command({
      command: `advanced run javascript --code ${code}`,
      confirmToken: preview.body.confirmToken,
    });
    expect(noMode.body.kind).toBe('error');
    const preview2 = await command({
      command: `advanced run javascript --code ${code}`,
      advancedMode: true,
    }).expect(200);
    const run = await command({
      command: `advanced run javascript --code ${code}`,
      advancedMode: true,
      confirmToken: preview2.body.confirmToken,
    }).expect(200);
    expect(run.body).toMatchObject({ kind: 'result', execution: { status: 'COMPLETED' } });
    expect(JSON.stringify(run.body.result)).toContain('2;4;6 {ok} | $HOME');
  });

  it('answers skill commands on a skill the store does not have with kind error NOT_FOUND', async () => {
    for (const cmd of ['skills install pdf-tools', 'skills use pdf-tools extract --json {"a":1}']) {
      const res = await command({ command: cmd }).expect(200);
      expect(res.body).toMatchObject({
        kind: 'error',
        summary: 'Skill not found: pdf-tools',
        result: { code: 'NOT_FOUND' },
      });
    }
  });

  it('previews a connector call (no such connector: the run is a kind error)', async () => {
    const preview = await command({ command: 'mcp call github create_issue --json {"title":"x"}' }).expect(
      200,
    );
    expect(preview.body).toMatchObject({ kind: 'preview', result: { tool: 'mcp.github.create_issue' } });
    const run = await command({
      command: 'mcp call github create_issue --json {"title":"x"}',
      confirmToken: preview.body.confirmToken,
    }).expect(200);
    expect(run.body).toMatchObject({
      kind: 'error',
      execution: { status: 'FAILED' },
      result: { code: 'NOT_FOUND' },
    });
  });
});
