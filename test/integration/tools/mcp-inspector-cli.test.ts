import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeWithMcpClients, MCP_CLIENTS } from '../../support/mcp-clients';
import type { ScenarioTarget } from './support/mcp-client-scenarios';
import { startInProcessTarget } from './support/mcp-client-target';

/**
 * MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.12.0, `--cli` mode, under the Node 22 of
 * tools/mcp-clients) against `/mcp` with a bearer header, in the legacy (2025-11-25) and the modern
 * (2026-07-28) era: tools/list, tools/call, resources/list and read, prompts/list and get (a
 * connector's federated prompt).
 */
describeWithMcpClients('MCP Inspector CLI', () => {
  let target: ScenarioTarget;
  let stop: () => Promise<void>;
  let home: string;

  beforeAll(async () => {
    ({ target, stop } = await startInProcessTarget());
    // The CLI keeps a catalog and OAuth state under $HOME: a fresh one, removed after.
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-inspector-home-'));
  }, 60_000);
  afterAll(async () => {
    await stop?.();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  /** Runs the CLI (asynchronously: the server runs in this process) and answers its JSON result. */
  const inspector = async (era: string, ...args: string[]) => {
    const { stdout } = await promisify(execFile)(
      MCP_CLIENTS.node22,
      [
        MCP_CLIENTS.inspector,
        ...['--server-url', `${target.url}/mcp`, '--transport', 'http', '--protocol-era', era],
        ...['--header', `Authorization: Bearer ${target.token}`, '--format', 'json', '-q'],
        ...args,
      ],
      { env: { ...process.env, HOME: home }, timeout: 60_000, maxBuffer: 16 << 20 },
    );
    const answer = JSON.parse(stdout) as { result?: Record<string, unknown>; error?: unknown };
    if (!answer.result) throw new Error(`inspector ${args.join(' ')}: ${stdout}`);
    return answer.result;
  };

  describe.each(['legacy', 'modern'])('%s era', (era) => {
    it('lists the tools and calls one', async () => {
      const listed = await inspector(era, '--method', 'tools/list');
      const names = (listed.tools as Array<{ name: string }>).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['platform.proc_execute', 'mcp.memo.echo']));
      const echoed = await inspector(
        era,
        ...['--method', 'tools/call', '--tool-name', 'mcp.memo.echo'],
        ...['--tool-args-json', JSON.stringify({ message: `hi ${era}` })],
      );
      expect(echoed).toMatchObject({ content: [{ type: 'text', text: `echo: hi ${era}` }] });
    }, 90_000);

    it('lists and reads a file as a resource', async () => {
      const file = `inspector/${era}.txt`;
      const written = await inspector(
        era,
        ...['--method', 'tools/call', '--tool-name', 'platform.fs_write'],
        ...['--tool-args-json', JSON.stringify({ path: file, content: `written by ${era}` })],
      );
      expect(written).toMatchObject({ isError: false });
      const uri = `file:///${file}`;
      const listed = await inspector(era, '--method', 'resources/list');
      expect(listed.resources).toContainEqual(expect.objectContaining({ uri, mimeType: 'text/plain' }));
      const read = await inspector(era, '--method', 'resources/read', '--uri', uri);
      expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: `written by ${era}` }]);
    }, 90_000);

    it('lists and gets a federated prompt', async () => {
      const listed = await inspector(era, '--method', 'prompts/list');
      expect((listed.prompts as Array<{ name: string }>).map((p) => p.name)).toContain('mcp.memo.greet');
      const got = await inspector(
        era,
        ...['--method', 'prompts/get', '--prompt-name', 'mcp.memo.greet'],
        ...['--prompt-args', 'name=Ada', 'language=french'],
      );
      expect(got.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Greet Ada in french' } },
      ]);
    }, 90_000);
  });
});
