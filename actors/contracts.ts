import type { RouteContract } from '../src/http/openapi/contract';
import type { OpenApiInfo } from '../src/http/openapi/document';
import { SERVICE_VERSION } from '../src/version';
import { appContracts } from './apps/apps.contract';
import { connectorContracts } from './connectors/connectors.contract';
import { executionContracts } from './executions/executions.contract';
import { fileContracts } from './files/files.contract';
import { accountContracts, agentContracts, bearerTokenContracts } from './identity/identity.contract';
import { memoryContracts } from './memory/memory.contract';
import { oauthContracts } from './oauth/oauth.contract';
import { notificationContracts } from './notifications/notifications.contract';
import { operationsContracts } from './operations/operations.contract';
import { opsContracts } from './ops/ops.contract';
import { socialContracts } from './social/social.contract';
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
  ...oauthContracts,
  ...socialContracts,
];

/** The document's title and version (the package's) for `/openapi.json` and the generated client. */
export const OPENAPI_INFO: OpenApiInfo = {
  title: 'Agent runtime service',
  version: SERVICE_VERSION,
  description:
    'A governed tool router, executions, files, memory and a vault for fleets of software agents. ' +
    'Errors are `{error, code, ...details}`: switch on `code`. Reference: docs/openapi.md.',
};
