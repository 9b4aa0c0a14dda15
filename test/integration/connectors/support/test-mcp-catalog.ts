import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Resources, a template, a prompt and completions on the test MCP server (federation tests). */
export function addTestCatalog(server: McpServer): void {
  server.registerResource(
    'readme',
    'memo://docs/readme',
    { title: 'Readme', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'upstream readme' }] }),
  );
  server.registerResource(
    'item',
    new ResourceTemplate('memo://items/{id}', {
      list: undefined,
      complete: { id: (value) => ['alpha', 'beta', 'gamma'].filter((v) => v.startsWith(value)) },
    }),
    { title: 'An item', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id }) }],
    }),
  );
  server.registerPrompt(
    'greet',
    {
      title: 'Greet',
      description: 'Greets someone in a language',
      argsSchema: {
        name: z.string(),
        language: completable(z.string(), (value) =>
          ['english', 'french', 'german'].filter((l) => l.startsWith(value)),
        ),
      },
    },
    ({ name, language }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name} in ${language}` } }],
    }),
  );
}
