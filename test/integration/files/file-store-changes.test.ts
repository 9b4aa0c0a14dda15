import { agentScope, useFileStore } from './file-store-support';

/**
 * Every change of a space's files is announced (FileStoreOptions.onChange): the MCP resource
 * subscriptions and the console hear of writes, renames, deletes, and of what a rollback or a
 * restore puts back, with the paths it touched.
 */
describe('file store: change announcements', () => {
  const heard: Array<{ ownerKey: string; paths: string[] }> = [];
  const target = useFileStore({ onChange: (ownerKey, paths) => heard.push({ ownerKey, paths: [...paths] }) });

  beforeEach(() => heard.splice(0));

  it('announces writes, renames, deletes, restores and rollbacks, and nothing for a no-op', async () => {
    const { files } = target();
    const scope = agentScope();
    await files.write(scope, { path: 'notes/a.txt', content: 'one' });
    const second = await files.write(scope, { path: 'notes/a.txt', content: 'two' });
    expect(heard.map((h) => h.paths)).toEqual([['notes/a.txt'], ['notes/a.txt']]);
    const ownerKey = heard[0]!.ownerKey;
    expect(heard.every((h) => h.ownerKey === ownerKey)).toBe(true);

    heard.splice(0);
    await files.rollback(scope, second.changes);
    expect(heard.map((h) => h.paths)).toEqual([['notes/a.txt']]);
    expect((await files.read(scope, { path: 'notes/a.txt' })).data).toBe('one');

    heard.splice(0);
    const current = await files.stat(scope, { path: 'notes/a.txt' });
    await files.restoreVersion(scope, { path: 'notes/a.txt', version: current.version });
    expect(heard).toEqual([]); // already in that state: no change, no announcement
    await files.restoreVersion(scope, { path: 'notes/a.txt', version: second.entry.version });
    expect(heard.map((h) => h.paths)).toEqual([['notes/a.txt']]);
    expect((await files.read(scope, { path: 'notes/a.txt' })).data).toBe('two');

    heard.splice(0);

    await files.rename(scope, { path: 'notes/a.txt', nextPath: 'notes/b.txt' });
    await files.delete(scope, { path: 'notes/b.txt' });
    expect(heard.map((h) => h.paths)).toEqual([['notes/a.txt', 'notes/b.txt'], ['notes/b.txt']]);
  });
});
