import type { Principal } from '../../../schemas/auth';
import { errors } from '../../../schemas/errors';
import type { McpResourceProvider } from '../../../src/http/mcp/json-rpc';
import type { ExecutionsService } from '../../executions/executions';

/**
 * Executions' logs as read-only MCP resources (docs/tool-router.md, "MCP resources"):
 * `execution://<exe_id>/logs`, the kept log lines of one execution of the caller's account as
 * text, one line each. The same visibility as `GET /api/executions/:id`: the account's executions,
 * for an account or one of its agents; a named token needs the `workflow` (or `api`) scope.
 * Listed on the first page of `resources/list` (the 20 newest), before the files.
 */

const SCHEME = 'execution://';
const LISTED = 20;

/** Whether the caller may read executions (the scope rule of `/api/executions`). */
function mayReadExecutions(principal: Principal): boolean {
  const scopes = principal.scopes;
  return !scopes || scopes.length === 0 || scopes.includes('workflow') || scopes.includes('api');
}

export const executionLogsUri = (id: string) => `${SCHEME}${id}/logs`;

function idOfUri(uri: string): string {
  const match = /^execution:\/\/(exe_[A-Za-z0-9_-]{1,100})\/logs$/.exec(uri);
  if (!match) throw errors.notFound(`No such resource: ${uri.slice(0, 200)}`);
  return match[1]!;
}

/** `files` plus the caller's executions' logs (unchanged when the caller cannot read executions). */
export function withExecutionLogs(
  files: McpResourceProvider,
  executions: ExecutionsService | undefined,
  principal: Principal,
): McpResourceProvider {
  const accountId = principal.accountId;
  if (!executions || !accountId || !mayReadExecutions(principal)) return files;
  return {
    async list(cursor) {
      const page = await files.list(cursor);
      if (cursor !== undefined) return page;
      const { docs } = await executions.queries.list(accountId, { limit: LISTED });
      const logs = docs.map((doc) => ({
        uri: executionLogsUri(doc._id),
        name: `${doc._id} logs`,
        title: `Logs of "${doc.title}" (${doc.status})`,
        mimeType: 'text/plain',
      }));
      return { ...page, resources: [...logs, ...page.resources] };
    },
    async read(uri) {
      if (!uri.startsWith(SCHEME)) return files.read(uri);
      const id = idOfUri(uri);
      const doc = await executions.queries.get(accountId, id);
      const lines = await executions.logs.tail(doc._id);
      const text = lines.map((l) => `${l.at} ${l.level.toUpperCase()} ${l.message}`).join('\n');
      return [{ uri, mimeType: 'text/plain', text }];
    },
    templates: [
      ...(files.templates as readonly unknown[]),
      {
        uriTemplate: `${SCHEME}{id}/logs`,
        name: 'execution-logs',
        title: "An execution's logs",
        description: 'The kept log lines of one of your executions (exe_…), read-only.',
        mimeType: 'text/plain',
      },
    ],
  };
}
