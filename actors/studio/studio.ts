import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { executionsServiceOf } from '../executions/executions';
import { chatRunner } from './chat.runner';
import { studioCommandRunner } from './studio-command.runner';

export { studioEnvOf } from './studio-env';
export { runStudioCommand, type StudioEnv, type StudioReply, type StudioToolEntry } from './studio-commands';

/**
 * The Studio (docs/studio.md) has no actor of its own: its commands run as executions. This
 * registers its execution types on the process's executions service (once per services) and
 * returns no actor definition, so that `actorDefinitions` can list it like the other domains.
 */
export function studioActors(services: Services): AnyActorDefinition[] {
  const runners = executionsServiceOf(services).runners;
  for (const runner of [studioCommandRunner, chatRunner]) {
    if (!runners.get(runner.type)) runners.register(runner);
  }
  return [];
}
