import { errors, isAppError } from '../../../schemas/errors';
import type {
  McpCompletion,
  McpCompletionRef,
  McpPromptProvider,
  McpResourceProvider,
} from '../../../src/http/mcp/json-rpc';

/**
 * The MCP resources, prompts and completions of `POST /mcp` (docs/tool-router.md, "MCP"): the
 * caller's governed files as read-only `file:///<path>` resources, two prompts that embed a file,
 * and completion of file paths. Everything goes through `call`, the router's own tool path
 * (`fs_list`, `fs_read`), so the caller's tool permissions, file space and route records apply
 * exactly as to a `tools/call`: nothing here reads the file store directly.
 */

/** Runs one platform tool as the caller (the MCP request's principal). */
export type CatalogCall = (tool: string, input: Record<string, unknown>) => Promise<unknown>;

const FILE_SCHEME = 'file:///';
const PAGE = 100;

interface ListedEntry {
  path: string;
  kind: string;
  size?: number;
  contentType?: string;
}

interface ListPage {
  entries: ListedEntry[];
  nextCursor: string | null;
}

interface ReadFile {
  path: string;
  data: string;
  contentEncoding: string;
  contentType: string;
}

const stripSlash = (path: string) => path.replace(/^\/+/, '');

/** `file:///<path>`, each segment percent-encoded. */
export function fileUri(path: string): string {
  return FILE_SCHEME + stripSlash(path).split('/').map(encodeURIComponent).join('/');
}

/** The path of a `file:///` URI; NOT_FOUND for any other URI (not a resource of this server). */
export function pathOfUri(uri: string): string {
  if (!uri.startsWith(FILE_SCHEME) || uri.length === FILE_SCHEME.length) {
    throw errors.notFound(`No such resource: ${uri.slice(0, 200)}`);
  }
  try {
    return uri.slice(FILE_SCHEME.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw errors.notFound(`No such resource: ${uri.slice(0, 200)}`);
  }
}

async function readFile(call: CatalogCall, path: string): Promise<ReadFile> {
  return (await call('fs_read', { path })) as ReadFile;
}

/** One file as MCP resource contents: UTF-8 text, or base64 `blob` for anything else. */
function contentsOf(file: ReadFile) {
  const base = { uri: fileUri(file.path), mimeType: file.contentType };
  return file.contentEncoding === 'utf8' ? { ...base, text: file.data } : { ...base, blob: file.data };
}

export function fileResources(call: CatalogCall): McpResourceProvider {
  return {
    async list(cursor) {
      // Directories are not resources: a page may hold fewer than PAGE files, never a wrong one.
      const page = (await call('fs_list', {
        recursive: true,
        limit: PAGE,
        ...(cursor !== undefined ? { cursor } : {}),
      })) as ListPage;
      const resources = page.entries
        .filter((e) => e.kind === 'file')
        .map((e) => ({
          uri: fileUri(e.path),
          name: stripSlash(e.path),
          ...(e.contentType ? { mimeType: e.contentType } : {}),
          ...(typeof e.size === 'number' ? { size: e.size } : {}),
        }));
      return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
    },
    async read(uri) {
      return [contentsOf(await readFile(call, pathOfUri(uri)))];
    },
    templates: [
      {
        uriTemplate: `${FILE_SCHEME}{+path}`,
        name: 'file',
        title: 'A file of your file space',
        description:
          'A governed file by path (the paths fs_list shows); read-only here, write with fs_write.',
      },
    ],
  };
}

const PATH_ARGUMENT = {
  name: 'path',
  description: 'Path of a file in your file space (completion lists them).',
  required: true,
};

const PROMPTS = Object.freeze([
  {
    name: 'summarize_file',
    title: 'Summarize a file',
    description: 'The file, embedded, with a request for a short summary of what it holds.',
    arguments: [PATH_ARGUMENT],
  },
  {
    name: 'edit_file',
    title: 'Edit a file',
    description: 'The file, embedded, with an instruction to change it and save the result with fs_write.',
    arguments: [
      PATH_ARGUMENT,
      { name: 'instruction', description: 'What to change in the file.', required: true },
    ],
  },
]);

function required(args: Record<string, string>, name: string): string {
  const value = args[name];
  if (value === undefined || value === '') throw errors.validation(`Missing required argument: ${name}`);
  return value;
}

export function filePrompts(call: CatalogCall): McpPromptProvider {
  return {
    list: PROMPTS,
    async get(name, args) {
      if (name !== 'summarize_file' && name !== 'edit_file') {
        throw errors.notFound(`Unknown prompt: ${name.slice(0, 100)}`);
      }
      const path = required(args, 'path');
      const instruction = name === 'edit_file' ? required(args, 'instruction') : '';
      const file = await readFile(call, path);
      const ask =
        name === 'summarize_file'
          ? `Summarize the file ${file.path} below: what it is, what it holds, anything notable.`
          : `Change the file ${file.path} below as follows: ${instruction}\nThen save the whole new content with the fs_write tool (path "${file.path}").`;
      return {
        description: `${name === 'summarize_file' ? 'Summarize' : 'Edit'} ${file.path}`,
        messages: [
          { role: 'user', content: { type: 'text', text: ask } },
          { role: 'user', content: { type: 'resource', resource: contentsOf(file) } },
        ],
      };
    },
  };
}

/**
 * Completes a file path (the `path` argument of the prompts, the `{path}` of the template): the
 * caller's files under the directory typed so far whose path starts with the value.
 */
export function completeFilePath(call: CatalogCall) {
  return async (ref: McpCompletionRef, argument: { name: string; value: string }): Promise<McpCompletion> => {
    const forPrompt = ref.type === 'ref/prompt' && PROMPTS.some((p) => p.name === ref.name);
    const forTemplate = ref.type === 'ref/resource' && ref.uri === `${FILE_SCHEME}{+path}`;
    if (argument.name !== 'path' || !(forPrompt || forTemplate)) return { values: [] };
    const typed = stripSlash(argument.value);
    const dir = typed.includes('/') ? typed.slice(0, typed.lastIndexOf('/')) : '';
    let page: ListPage;
    try {
      page = (await call('fs_list', {
        ...(dir ? { path: dir } : {}),
        recursive: true,
        limit: PAGE,
      })) as ListPage;
    } catch (err) {
      // A directory that does not exist (yet) has nothing to offer; a refusal still says why.
      if (isAppError(err) && (err.code === 'NOT_FOUND' || err.code === 'CONFLICT')) return { values: [] };
      throw err;
    }
    const values = page.entries
      .filter((e) => e.kind === 'file' && stripSlash(e.path).startsWith(typed))
      .map((e) => stripSlash(e.path));
    return { values, hasMore: page.nextCursor !== null };
  };
}
