import type { Runtime } from '../../src/boot/runtime';
import { subjectOf } from './token-claims';

/**
 * Makes the account behind `token` look like an account from before default workspaces were
 * provisioned: its `workspaces` document is removed (the id stays recorded on the account, as it
 * was). Returns that recorded id.
 */
export async function dropDefaultWorkspace(runtime: Runtime, token: string): Promise<string> {
  const accountId = subjectOf(token, runtime.secrets.jwtSecret);
  const db = runtime.documents.db;
  const account = await db.collection<{ _id: string; defaultWorkspaceId: string }>('accounts').findOne({
    _id: accountId,
  });
  if (!account) throw new Error('no such account');
  const removed = await db
    .collection<{ _id: string }>('workspaces')
    .deleteOne({ _id: account.defaultWorkspaceId });
  if (removed.deletedCount !== 1) throw new Error('the account had no default workspace document');
  return account.defaultWorkspaceId;
}
