import { dbTools } from './db/db.tools';
import { eventsTools } from './events/events.tools';
import { fsTools } from './files/fs.tools';
import { memTools } from './mem/mem.tools';
import { netTools } from './net/net.tools';
import { socialDraftTool } from '../social/social-draft.tool';
import { procExecuteTool } from './proc/proc-execute.tool';
import type { AnyToolDeclaration } from './router/tool-declaration';

/**
 * The built-in tools this service serves, listed as `platform.<name>` by `GET /tools` and MCP
 * `tools/list`. To add one: declare it in its own file with `defineTool` (actors/tools/<area>/),
 * name it in `BUILTIN_PRIMITIVES` (schemas/tools/primitives.ts), and add one line here.
 * See docs/tool-router.md, "Adding a tool".
 */
export const PLATFORM_TOOLS: readonly AnyToolDeclaration[] = Object.freeze([
  ...memTools,
  ...eventsTools,
  ...fsTools,
  procExecuteTool,
  ...netTools,
  ...dbTools,
  // The optional social connector's (docs/social.md); build-services leaves it out when SOCIAL_ENABLED=false.
  socialDraftTool,
]);
