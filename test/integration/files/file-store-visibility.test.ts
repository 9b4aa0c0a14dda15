import { canSee, type FileViewer } from '../../../actors/files/file-scope';
import type { FileDocument } from '../../../schemas/documents/file';
import { useFileStore } from './file-store-support';

/**
 * Two accounts (A, B) sharing workspace ws_shared; A also has ws_a, of which B is not a member;
 * C is a third account in no workspace; A has an agent.
 */
const A = 'acc_a';
const B = 'acc_b';
const C = 'acc_c';
const AGENT = 'agt_a1';
const SHARED = 'ws_shared';
const A_ONLY = 'ws_a';

describe('file store: visibility-aware listing across accounts', () => {
  const target = useFileStore();

  beforeAll(async () => {
    const { files } = target();
    const inShared = { accountId: A, workspaceId: SHARED };
    await files.write(inShared, { path: 'secret.txt', content: 'A only' });
    await files.write(inShared, { path: 'shared/plan.md', content: 'team', visibility: 'workspace' });
    await files.write(inShared, { path: 'pub/readme.md', content: 'everyone', visibility: 'public' });
    await files.write(
      { accountId: A, workspaceId: A_ONLY },
      { path: 'a-team.md', content: 'x', visibility: 'workspace' },
    );
    await files.write({ agentId: AGENT, accountId: A }, { path: 'agent-notes.txt', content: 'agent' });
    await files.write(
      { accountId: B, workspaceId: SHARED },
      { path: 'b-team.md', content: 'b', visibility: 'workspace' },
    );
    await files.write({ accountId: B }, { path: 'b-private.txt', content: 'b only' });
    // Deleted files are never listed, whatever their visibility.
    await files.write({ accountId: B }, { path: 'b-gone.txt', content: 'x', visibility: 'public' });
    await files.delete({ accountId: B }, { path: 'b-gone.txt' });
  });

  const visible = async (viewer: FileViewer) => {
    const { entries } = await target().files.listVisible(viewer);
    return entries.map((e) => `${e.entry.path}${e.owned ? ' (own)' : ''}`);
  };

  it("the owner sees all of its files, its agents' included, and its workspaces' shared files", async () => {
    expect(await visible({ accountId: A, workspaceIds: [SHARED, A_ONLY] })).toEqual([
      'a-team.md (own)',
      'agent-notes.txt (own)',
      'b-team.md',
      'pub/readme.md (own)',
      'secret.txt (own)',
      'shared/plan.md (own)',
    ]);
  });

  it('a member of the shared workspace sees its own, workspace files of that workspace, and public ones', async () => {
    expect(await visible({ accountId: B, workspaceIds: [SHARED] })).toEqual([
      'b-private.txt (own)',
      'b-team.md (own)',
      'pub/readme.md',
      'shared/plan.md',
    ]);
  });

  it('an outsider sees public files only; so does a viewer with no identity', async () => {
    expect(await visible({ accountId: C, workspaceIds: [] })).toEqual(['pub/readme.md']);
    expect(await visible({ workspaceIds: [] })).toEqual(['pub/readme.md']);
    // Claiming a workspace is the caller's job to check; the store applies what it is given.
    expect(await visible({ accountId: C, workspaceIds: [A_ONLY] })).toEqual(['a-team.md', 'pub/readme.md']);
  });

  it('an agent owns its own space only', async () => {
    expect(await visible({ agentId: AGENT, accountId: A, workspaceIds: [] })).toEqual([
      'agent-notes.txt (own)',
      'pub/readme.md',
    ]);
  });

  it('filters by prefix and pages across owners', async () => {
    const { files } = target();
    const viewer = { accountId: A, workspaceIds: [SHARED, A_ONLY] };
    expect((await files.listVisible(viewer, { prefix: 'shared' })).entries.map((e) => e.entry.path)).toEqual([
      'shared/plan.md',
    ]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await files.listVisible(viewer, { limit: 2, cursor });
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.entry.path));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([
      'a-team.md',
      'agent-notes.txt',
      'b-team.md',
      'pub/readme.md',
      'secret.txt',
      'shared/plan.md',
    ]);
  });

  it('the query filter and the canSee predicate agree on every file and viewer', async () => {
    const { documents, files } = target();
    const docs = (await documents.db
      .collection('files')
      .find({ deleted: false, kind: 'file' })
      .toArray()) as unknown as FileDocument[];
    const viewers: FileViewer[] = [
      { accountId: A, workspaceIds: [SHARED, A_ONLY] },
      { accountId: B, workspaceIds: [SHARED] },
      { accountId: C, workspaceIds: [] },
      { agentId: AGENT, workspaceIds: [SHARED] },
      { workspaceIds: [SHARED] },
    ];
    for (const viewer of viewers) {
      const expected = docs
        .filter((d) => canSee(viewer, d))
        .map((d) => `${d.ownerKey}|${d.path}`)
        .sort();
      const listed = (await files.listVisible(viewer)).entries
        .map((e) => {
          const doc = docs.find(
            (d) => d.path === e.entry.path && JSON.stringify(d.scope) === JSON.stringify(e.scope),
          );
          return `${doc?.ownerKey}|${e.entry.path}`;
        })
        .sort();
      expect(listed).toEqual(expected);
    }
  });

  it('entries carry no internal ids; the scope is returned beside them, for the route to map', async () => {
    const { entries } = await target().files.listVisible({ accountId: B, workspaceIds: [SHARED] });
    for (const { entry } of entries) {
      expect(JSON.stringify(entry)).not.toMatch(/acc_|agt_|fil_|fv_/);
    }
    expect(entries.find((e) => e.entry.path === 'shared/plan.md')?.scope).toEqual({
      accountId: A,
      workspaceId: SHARED,
    });
  });
});
