import { chatRunner } from './chat.runner';
import { studioCommandRunner } from './studio-command.runner';

export { createStudioEnv } from './studio-env';
export { runStudioCommand, type StudioEnv, type StudioReply, type StudioToolEntry } from './studio-commands';

/**
 * The Studio (docs/studio.md) has no actor of its own: its commands run as executions of these
 * types, which `startRuntime` registers on the executions service.
 */
export const studioRunners = [studioCommandRunner, chatRunner] as const;
