import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startAuthProxy, type AuthProxy } from '../../support/auth-proxy';
import { describeWithMcpClients, MCP_CLIENTS } from '../../support/mcp-clients';
import { startRouterHarness, type RouterHarness } from '../../integration/tools/support/router-harness';
import expected from './expected-failures.json';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server scenarios of the
 * active suite) against `/mcp` of a runtime started here, under the Node 22 of tools/mcp-clients.
 * The suite takes no header option and `/mcp` always authenticates, so it talks to a loopback
 * proxy that adds an account's bearer token; the runtime's PUBLIC_BASE_URL is that proxy's address
 * (the address its clients use, as behind any proxy). Fails when a scenario that is not in
 * expected-failures.json fails; reports, without failing, a listed one that now passes (take it
 * off the list: the list only shrinks). docs/tool-router.md ("The official conformance suite").
 */
type Check = { id: string; name: string; status: string; errorMessage?: string };

/** Each scenario's checks, from the suite's output directory (`server-<scenario>-<timestamp>/`). */
function readResults(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of fs.readdirSync(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
    const file = path.join(dir, entry, 'checks.json');
    if (scenario && fs.existsSync(file)) results.set(scenario, JSON.parse(fs.readFileSync(file, 'utf8')));
  }
  return results;
}

describeWithMcpClients('MCP conformance suite (official, server scenarios)', () => {
  let h: RouterHarness;
  let proxy: AuthProxy;
  let out: string;

  beforeAll(async () => {
    proxy = await startAuthProxy();
    h = await startRouterHarness({}, { PUBLIC_BASE_URL: proxy.url });
    const { token } = await h.account();
    proxy.point(h.url, `Bearer ${token}`);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-mcp-conformance-'));
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await h?.stop();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('fails no scenario that is not on the expected-failures list', async () => {
    const run = await promisify(execFile)(
      MCP_CLIENTS.node22,
      [MCP_CLIENTS.conformance, 'server', '--url', `${proxy.url}/mcp`, '-o', out],
      { maxBuffer: 64 << 20, timeout: 120_000 },
    ).catch((err: { stdout?: string; stderr?: string; code?: unknown }) => err);
    const results = readResults(out);
    // The suite ran its scenarios (a crash before any would otherwise pass as "nothing failed").
    if (results.size < 20) {
      const { stdout, stderr } = run as { stdout?: string; stderr?: string };
      throw new Error(
        `the suite ran ${results.size} scenarios:\n${stdout ?? ''}\n${stderr ?? ''}`.slice(0, 8000),
      );
    }

    const excused: Record<string, string> = expected.expectedFailures;
    const failed = new Map<string, Check[]>();
    for (const [scenario, checks] of results) {
      const failures = checks.filter((c) => c.status === 'FAILURE');
      if (failures.length > 0) failed.set(scenario, failures);
    }
    const unexpected = [...failed]
      .filter(([scenario]) => !(scenario in excused))
      .map(([scenario, checks]) => ({
        scenario,
        failures: checks.map((c) => `${c.name}: ${c.errorMessage}`),
      }));
    const nowPassing = Object.keys(excused).filter((s) => results.has(s) && !failed.has(s));
    const notRun = Object.keys(excused).filter((s) => !results.has(s));
    const applicable = [...results.keys()].filter((s) => !(s in excused) || nowPassing.includes(s));
    const passed = applicable.filter((s) => !failed.has(s));
    const warnings = [...results].flatMap(([s, checks]) =>
      checks.filter((c) => c.status === 'WARNING').map((c) => `${s}: ${c.name}: ${c.errorMessage ?? ''}`),
    );
    process.stdout.write(
      `MCP conformance (${expected.suite}): ${passed.length}/${applicable.length} applicable scenarios pass ` +
        `(${results.size} run, ${results.size - applicable.length} excused)\n` +
        (warnings.length ? `  warnings: ${warnings.join('; ')}\n` : '') +
        (nowPassing.length
          ? `  now passing, take them off test/conformance/mcp/expected-failures.json: ${nowPassing.join(', ')}\n`
          : '') +
        (notRun.length ? `  listed but not run by this suite: ${notRun.join(', ')}\n` : ''),
    );
    expect(unexpected).toEqual([]);
  }, 180_000);
});
