import type { CollectionDefinition } from '../src/store/mongo';
import { appsCollections } from './apps/apps.collection';
import { connectorsCollections } from './connectors/connectors';
import { executionsCollections } from './executions/executions';
import { filesCollections } from './files/files.collection';
import { accountsCollections } from './identity/accounts';
import { agentsAndTokensCollections } from './identity/agents-and-tokens';
import { revokedTokensCollection } from './identity/revoked-tokens.collection';
import { memoryCollections } from './memory/memory.collection';
import { oauthCollections } from './oauth/oauth';
import { crewRecordsCollection } from './operations/crew-records.collection';
import { skillsCollections } from './skills/skills.collection';
import { socialCollections } from './social/social.collection';
import { routeCollections } from './tools/router/route-records.collection';
import { vaultCollections } from './vault/vault.collection';
import { workspacesCollections } from './workspaces/workspaces';

/**
 * Every document collection of the service; `startRuntime` ensures their indexes at boot
 * (idempotent). Add a domain's definitions here (one line each).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const collectionDefinitions: CollectionDefinition<any>[] = [
  revokedTokensCollection,
  ...accountsCollections,
  ...agentsAndTokensCollections,
  ...routeCollections,
  ...filesCollections,
  ...memoryCollections,
  ...connectorsCollections,
  ...executionsCollections,
  ...vaultCollections,
  ...workspacesCollections,
  ...skillsCollections,
  ...appsCollections,
  ...oauthCollections,
  ...socialCollections,
  crewRecordsCollection,
];
