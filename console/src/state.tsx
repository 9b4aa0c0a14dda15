import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './api/auth';
import type { Workspace } from './api/account';

/** What every page may read: who is signed in, the workspace in view and its lockdown. */
export interface AppState {
  session: Session;
  workspaces: Workspace[];
  workspaceId: string;
  setWorkspaceId: (id: string) => void;
  lockdown: { active: boolean; since: string | null };
  refreshLockdown: () => Promise<void>;
  unread: number;
  refreshUnread: () => Promise<void>;
  refreshSession: () => Promise<void>;
  refreshWorkspaces: () => Promise<void>;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside the signed-in shell');
  return state;
}
