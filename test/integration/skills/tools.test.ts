import { loadCatalog } from '../../../actors/skills/catalog-loader';
import { startTestMcpServer, type TestMcpServer } from '../connectors/support/test-mcp-server';
import { bearer, startSkillsHarness, type SkillsHarness } from './support/harness';

const catalog = loadCatalog();
const csv = catalog.find((s) => s.slug === 'csv-toolkit')!;

/** Skills as tools (docs/skills.md, "Skills as tools"): listed for their installer, called through /mcp. */
describe('skill store: installed capabilities are tools', () => {
  let h: SkillsHarness;
  let server: TestMcpServer;
  let t: string;
  beforeAll(async () => {
    h = await startSkillsHarness({ ALLOW_LOOPBACK_HTTP: 'true' });
    server = await startTestMcpServer();
    t = await h.account();
    await h.install(t, { slug: 'csv-toolkit' });
  });
  afterAll(async () => {
    await h?.stop();
    await server?.stop().catch(() => undefined);
  });

  const rpc = (token: string, method: string, params: Record<string, unknown> = {}) =>
    h
      .http()
      .post('/mcp')
      .set(bearer(token))
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method, params });
  const skillTools = (tools: Array<{ name: string }>) =>
    tools.filter((x) => x.name.startsWith('platform.skill.'));

  it("lists the installer's active capabilities with their params schema in GET /tools and tools/list", async () => {
    const anonymous = await h.http().get('/tools');
    expect(skillTools(anonymous.body.tools)).toEqual([]);
    const mine = await h.http().get('/tools').set(bearer(t));
    expect(skillTools(mine.body.tools).map((x) => x.name)).toEqual([
      'platform.skill.csv-toolkit.aggregate',
      'platform.skill.csv-toolkit.parse',
      'platform.skill.csv-toolkit.query',
    ]);
    const query = mine.body.tools.find(
      (x: { name: string }) => x.name === 'platform.skill.csv-toolkit.query',
    );
    expect(query.inputSchema).toEqual(csv.capabilities.find((c) => c.name === 'query')!.paramsSchema);
    const list = await rpc(t, 'tools/list');
    const listed = skillTools(list.body.result.tools) as Array<{
      name: string;
      annotations: { readOnlyHint: boolean };
    }>;
    expect(listed.map((x) => [x.name, x.annotations.readOnlyHint])).toContainEqual([
      'platform.skill.csv-toolkit.query',
      true,
    ]);
    // Another account sees none of them.
    expect(
      skillTools(
        (
          await h
            .http()
            .get('/tools')
            .set(bearer(await h.account()))
        ).body.tools,
      ),
    ).toEqual([]);
  });

  it('calls a capability through POST /mcp in both dialects; each call is a SKILL_EXECUTION', async () => {
    const res = await h
      .http()
      .post('/mcp')
      .set(bearer(t))
      .send({ tool: 'platform.skill.csv-toolkit.query', input: csv.example.params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, result: csv.example.output });
    const call = await rpc(t, 'tools/call', {
      name: 'platform.skill.csv-toolkit.query',
      arguments: csv.example.params,
    });
    expect(call.body.result).toMatchObject({ isError: false, structuredContent: csv.example.output });
    const executions = await h
      .http()
      .get('/api/executions')
      .query({ skillSlug: 'csv-toolkit' })
      .set(bearer(t));
    expect(
      executions.body.executions.filter((e: { type: string }) => e.type === 'SKILL_EXECUTION'),
    ).toHaveLength(2);
    const bad = await h
      .http()
      .post('/mcp')
      .set(bearer(t))
      .send({ tool: 'platform.skill.csv-toolkit.query', input: { nope: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    // The call's own route record names the skill.
    let record: { routeDecision: { source: string }; related: { skills: string[] } } | undefined;
    for (let i = 0; i < 100 && !record; i++) {
      const routes = await h.http().get('/api/ffp/routes').set(bearer(t));
      record = routes.body.routes.find(
        (r: { tool: string; status: string }) => r.tool === 'platform.skill.csv-toolkit.query',
      );
      if (!record) await new Promise((r) => setTimeout(r, 50));
    }
    expect(record).toMatchObject({
      routeDecision: { source: 'skill' },
      related: { skills: ['csv-toolkit'] },
    });
  });

  it("a tool exists only while installed; a disabled one is refused with the use's reason", async () => {
    const other = await h.account();
    const unknown = await h
      .http()
      .post('/mcp')
      .set(bearer(other))
      .send({ tool: 'platform.skill.csv-toolkit.parse', input: { csv: 'a\n1' } });
    expect(unknown.status).toBe(404);
    await h.install(other, { slug: 'csv-toolkit' });
    await h
      .http()
      .patch('/api/skills/csv-toolkit/installation')
      .set(bearer(other))
      .send({ status: 'disabled' });
    expect(skillTools((await h.http().get('/tools').set(bearer(other))).body.tools)).toEqual([]);
    const disabled = await h
      .http()
      .post('/mcp')
      .set(bearer(other))
      .send({ tool: 'platform.skill.csv-toolkit.parse', input: { csv: 'a\n1' } });
    expect(disabled.status).toBe(403);
    expect(disabled.body.reason).toBe('not_active');
    const missingCapability = await h
      .http()
      .post('/mcp')
      .set(bearer(t))
      .send({ tool: 'platform.skill.csv-toolkit.nope', input: {} });
    expect(missingCapability.status).toBe(404);
  });

  it('deployed agents call skill tools only when their allowedTools say so', async () => {
    const plain = await h.agent(t);
    expect(skillTools((await h.http().get('/tools').set(bearer(plain))).body.tools)).toEqual([]);
    const refused = await h
      .http()
      .post('/mcp')
      .set(bearer(plain))
      .send({ tool: 'platform.skill.csv-toolkit.parse', input: { csv: 'a\n1' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/allowedTools/);
    const allowed = await h.agent(t, { allowedTools: ['platform.skill.csv-toolkit.*'] });
    expect(skillTools((await h.http().get('/tools').set(bearer(allowed))).body.tools)).toHaveLength(3);
    const ok = await h
      .http()
      .post('/mcp')
      .set(bearer(allowed))
      .send({ tool: 'platform.skill.csv-toolkit.parse', input: { csv: 'a\n1' } });
    expect(ok.body).toEqual({ success: true, result: { columns: ['a'], rowCount: 1, rows: [{ a: 1 }] } });
  });

  it("a capability's connector calls reach the account's connector and are recorded in its usedBy", async () => {
    const created = await h
      .http()
      .post('/api/connectors')
      .set(bearer(t))
      .send({ slug: 'calc', transport: 'http', url: server.url });
    expect(created.status).toBe(201);
    await h.install(t, { slug: 'connector-relay', permissionsApproved: ['mcp'] });
    const res = await h.use(t, 'connector-relay', 'call', {
      server: 'calc',
      tool: 'add',
      arguments: { a: 2, b: 3 },
      select: ['sum'],
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ tool: 'mcp.calc.add', fields: { sum: 5 } });
    let usedBy: { skills: string[] } | undefined;
    for (let i = 0; i < 100 && !usedBy?.skills.length; i++) {
      usedBy = (await h.http().get('/api/connectors/calc').set(bearer(t))).body.connector.usedBy;
      if (!usedBy?.skills.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(usedBy!.skills).toEqual(['connector-relay']);
  });
});
