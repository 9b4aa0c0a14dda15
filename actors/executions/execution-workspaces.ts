import type { Services } from '../../src/boot/services';
import { workspaceLookups } from '../identity/agents-and-tokens';

/**
 * Which workspaces an account may start work in and stop (docs/workspaces.md, "Executions and
 * panic"), decided by the one membership check of the workspaces domain:
 * - any member (owner, admin, member) may start executions in a workspace and record changes there;
 *   an execution stays its account's own (listings show each account its own executions only);
 * - panic stops the work of every member, so only the owner or an admin may press it.
 */
export interface ExecutionWorkspaces {
  /** The account's default workspace (where work goes when no workspace is named). */
  defaultWorkspaceOf(accountId: string): Promise<string | undefined>;
  /** Whether the account is a member of the workspace (any role). */
  canWorkIn(accountId: string, workspaceId: string): Promise<boolean>;
  /** `owner`/`admin` may panic, `member` may not, `none`: not a member (or no such workspace). */
  panicRight(accountId: string, workspaceId: string): Promise<'allowed' | 'member' | 'none'>;
}

/** Accounts whose default workspace this process remembers (the oldest forgotten first). */
const REMEMBERED_DEFAULTS = 10_000;

export function executionWorkspaces(services: Services): ExecutionWorkspaces {
  const { defaultWorkspaceOf } = workspaceLookups(services);
  const membership = () => services.workspaces.membership;
  // An account's default workspace is the id recorded on it at signup and never changes: once
  // found it is remembered, so a burst of one account's executions reads it once.
  const defaults = new Map<string, string>();
  return {
    defaultWorkspaceOf: async (accountId) => {
      const known = defaults.get(accountId);
      if (known) return known;
      const found = await defaultWorkspaceOf(accountId);
      if (found) {
        if (defaults.size >= REMEMBERED_DEFAULTS) defaults.delete(defaults.keys().next().value!);
        defaults.set(accountId, found);
      }
      return found;
    },
    canWorkIn: (accountId, workspaceId) => membership().isMember({ accountId }, workspaceId),
    panicRight: async (accountId, workspaceId) => {
      const role = await membership().roleOf({ accountId }, workspaceId);
      if (role === undefined) return 'none';
      return role === 'member' ? 'member' : 'allowed';
    },
  };
}
