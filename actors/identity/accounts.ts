import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { accountActor } from './account.actor';
import { workspacesCollection } from '../workspaces/workspaces.collection';
import { accountsCollection, planTransitionsCollection } from './accounts.collection';
import { accountsDirectoryActor } from './accounts-directory.actor';
import './identity-options';

/** The actors of accounts and sessions: `accounts:directory` and `account:<id>`. */
export function accountsActors(services: Services): AnyActorDefinition[] {
  return [accountsDirectoryActor(services), accountActor(services)];
}

/** Collections of accounts: `accounts`, `workspaces`, `plan_transitions`. */
export const accountsCollections = [accountsCollection, workspacesCollection, planTransitionsCollection];
