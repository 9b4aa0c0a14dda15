import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import { ConnectorListResponseSchema } from '../../schemas/http/connectors';
import { AgentListToolsReplySchema } from '../../schemas/messages/tools';
import type { Services } from '../../src/boot/services';
import { callerAgentId } from '../tools/router/default-agent';
import { principalKey, SharedReads } from './shared-reads';
import type { StudioEnv, StudioToolDefinition } from './studio-commands';

type StudioConnector = Awaited<ReturnType<StudioEnv['listConnectors']>>[number];

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * What the Studio commands need, from the process's services: the tool router's registry and
 * deadlines, the caller's tool listing (the built-in tools and the connector tools its agent may
 * call, as `GET /tools` lists them) and its account's connectors.
 */
export function createStudioEnv(services: Services): StudioEnv {
  const router = services.toolRouter;
  if (!router) throw errors.unavailable('The tool router is not available');
  const { registry, resolvers } = router;
  const builtin: StudioToolDefinition[] = registry.mcpTools.map((t) => ({
    name: t.name,
    description: t.description,
    readOnly: t.annotations.readOnlyHint,
    inputSchema: t.inputSchema,
  }));
  // Identical listings asked at the same moment (a burst of one account's streams) share one ask.
  const toolReads = new SharedReads<StudioToolDefinition[]>();
  const connectorReads = new SharedReads<StudioConnector[]>();
  const listToolDefinitions = (principal: Principal): Promise<StudioToolDefinition[]> =>
    toolReads.read(principalKey(principal), () => fetchToolDefinitions(principal));
  const fetchToolDefinitions = async (principal: Principal): Promise<StudioToolDefinition[]> => {
    if (!resolvers.connector && !resolvers.skill) return builtin;
    let extra: StudioToolDefinition[] = [];
    try {
      const reply = await services.system.ask(
        `agent:${callerAgentId(principal)}`,
        'agent.listTools',
        {},
        { auth: principal },
      );
      extra = AgentListToolsReplySchema.parse(reply).tools.map(
        ({ name, description, readOnly, inputSchema }) => ({
          name,
          description,
          readOnly,
          inputSchema,
        }),
      );
    } catch (err) {
      services.logger.warn({ err }, 'studio: the connector tools of the caller could not be listed');
    }
    return [...builtin, ...extra].sort(byName);
  };
  return {
    system: services.system,
    services,
    registry,
    deadlineMs: (target) => router.deadlineMs(target),
    listToolDefinitions,
    listTools: async (principal: Principal) =>
      (await listToolDefinitions(principal)).map(({ name, description, readOnly }) => ({
        name,
        description,
        readOnly,
      })),
    listConnectors: (principal: Principal) =>
      connectorReads.read(principalKey(principal), async () => {
        if (!principal.accountId) return [];
        const reply = await services.system.ask(
          `connectors:${principal.accountId}`,
          'connectors.list',
          {},
          { auth: principal },
        );
        return ConnectorListResponseSchema.parse(reply).connectors;
      }),
  };
}
