import type { RouteContract } from '../src/http/openapi/contract';
import { appContracts } from './apps/apps.contract';
import { connectorContracts } from './connectors/connectors.contract';
import { executionContracts } from './executions/executions.contract';
import { fileContracts } from './files/files.contract';
import { accountContracts, agentContracts, bearerTokenContracts } from './identity/identity.contract';
import { memoryContracts } from './memory/memory.contract';
import { notificationContracts } from './notifications/notifications.contract';
import { operationsContracts } from './operations/operations.contract';
import { opsContracts } from './ops/ops.contract';
import { skillContracts } from './skills/skills.contract';
import { studioContracts } from './studio/studio.contract';
import { toolRouterContracts } from './tools/router/tool-router.contract';
import { vaultContracts } from './vault/vault.contract';
import { workspaceContracts } from './workspaces/workspaces.contract';

/**
 * The contract of every route of `routeModules` (docs/openapi.md), from which `GET /openapi.json`
 * is built. A route module's contracts live beside it (`<area>.contract.ts`); add them here.
 * `test/integration/http/openapi-coverage.test.ts` fails when a registered route has none.
 */
export const routeContracts: readonly RouteContract[] = [
  ...toolRouterContracts,
  ...opsContracts,
  ...accountContracts,
  ...agentContracts,
  ...bearerTokenContracts,
  ...connectorContracts,
  ...executionContracts,
  ...notificationContracts,
  ...studioContracts,
  ...skillContracts,
  ...appContracts,
  ...vaultContracts,
  ...fileContracts,
  ...memoryContracts,
  ...workspaceContracts,
  ...operationsContracts,
];
