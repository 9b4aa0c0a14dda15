import { randomBytes } from 'node:crypto';
import { FILE_LIMITS } from '../../../schemas/documents/file';
import { agentScope, useFileStore } from './file-store-support';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('file store: content, versions, concurrency (embedded document server)', () => {
  const target = useFileStore();
  const files = () => target().files;

  it('round-trips utf8 text and binary bytes exactly', async () => {
    const scope = agentScope();
    const text = 'héllo wörld ✓ 🚀\nline 2';
    const written = await files().write(scope, { path: 'notes/hello.txt', content: text });
    expect(written).toMatchObject({
      created: true,
      previousVersion: null,
      entry: {
        path: 'notes/hello.txt',
        kind: 'file',
        visibility: 'private',
        size: Buffer.byteLength(text),
        version: 1,
        contentEncoding: 'utf8',
        contentType: 'text/plain',
      },
    });
    expect(written.entry.sha256).toMatch(/^[a-f0-9]{64}$/);
    expect(await files().read(scope, { path: 'notes/hello.txt' })).toMatchObject({
      path: 'notes/hello.txt',
      data: text,
      contentEncoding: 'utf8',
      size: Buffer.byteLength(text),
      version: 1,
    });

    // Every byte value, NULs and invalid UTF-8 included.
    const bytes = Buffer.concat([Buffer.from([0, 255, 254, 0, 128, 10, 13]), randomBytes(4096)]);
    const bin = await files().write(scope, { path: 'blob.bin', data: bytes.toString('base64') });
    expect(bin.entry).toMatchObject({
      size: bytes.length,
      contentEncoding: 'base64',
      contentType: 'application/octet-stream',
    });
    const back = await files().read(scope, { path: 'blob.bin' });
    expect(back.contentEncoding).toBe('base64');
    expect(Buffer.from(back.data, 'base64').equals(bytes)).toBe(true);
    // Binary that is not UTF-8 cannot be read as text: a clear error, never replacement characters.
    await expect(files().read(scope, { path: 'blob.bin', encoding: 'utf8' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('base64'),
    });
    // Text can be read as base64, and base64 data declared utf8 is text.
    expect((await files().read(scope, { path: 'notes/hello.txt', encoding: 'base64' })).data).toBe(
      Buffer.from(text).toString('base64'),
    );
    await files().write(scope, { path: 'doc.md', data: '# Title', contentEncoding: 'utf8' });
    expect(await files().read(scope, { path: 'doc.md' })).toMatchObject({
      data: '# Title',
      contentType: 'text/markdown',
    });
    // The parent directory was made by the write.
    expect(await files().stat(scope, { path: 'notes' })).toMatchObject({ kind: 'dir', size: 0 });
  });

  it('refuses bad content: both or neither of data/content, invalid base64', async () => {
    const scope = agentScope();
    await expect(files().write(scope, { path: 'a', data: b64('x'), content: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(files().write(scope, { path: 'a' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(files().write(scope, { path: 'a', data: 'not base64!' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'data is not valid base64',
    });
    await expect(files().write(scope, { path: 'a/', content: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { reason: 'trailing_slash' },
    });
  });

  it('caps content at 5 MiB decoded bytes with PAYLOAD_TOO_LARGE', async () => {
    const scope = agentScope();
    const max = FILE_LIMITS.maxFileBytes;
    const exact = await files().write(scope, {
      path: 'big.bin',
      data: Buffer.alloc(max, 7).toString('base64'),
    });
    expect(exact.entry.size).toBe(max);
    const over = Buffer.alloc(max + 1, 7).toString('base64');
    await expect(files().write(scope, { path: 'big2.bin', data: over })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
      details: { size: max + 1, maxBytes: max },
    });
    await expect(
      files().write(scope, { path: 'big3.txt', content: 'é'.repeat(max / 2 + 1) }),
    ).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    await expect(files().stat(scope, { path: 'big2.bin' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the last 10 versions, prunes older bytes, and reads kept versions', async () => {
    const { files: store, documents } = target();
    const scope = agentScope();
    for (let i = 1; i <= 12; i++) {
      const res = await store.write(scope, { path: 'v.txt', content: `content ${i}` });
      expect(res.entry.version).toBe(i);
      expect(res.previousVersion).toBe(i === 1 ? null : i - 1);
    }
    const { versions } = await store.listVersions(scope, { path: 'v.txt' });
    expect(versions.map((v) => v.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect((await store.read(scope, { path: 'v.txt', version: 3 })).data).toBe('content 3');
    await expect(store.read(scope, { path: 'v.txt', version: 2 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { keptVersions: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12] },
    });
    const doc = await documents.db
      .collection('files')
      .findOne({ ownerKey: `agent:${scope.agentId}`, path: 'v.txt' });
    expect(await documents.db.collection('file_versions').countDocuments({ fileId: doc?._id })).toBe(10);
  });

  it('restoreVersion makes a new version with the old content; rollback of a write undoes it', async () => {
    const scope = agentScope();
    await files().write(scope, { path: 'r.txt', content: 'one' });
    await files().write(scope, { path: 'r.txt', content: 'two' });
    const restored = await files().restoreVersion(scope, { path: 'r.txt', version: 1 });
    expect(restored.entry).toMatchObject({ version: 3 });
    expect(restored.changes).toEqual([{ path: 'r.txt', kind: 'file', version: 3, previousVersion: 2 }]);
    expect(await files().read(scope, { path: 'r.txt' })).toMatchObject({ data: 'one', version: 3 });
    // Asking again for the state it is already in changes nothing.
    expect((await files().restoreVersion(scope, { path: 'r.txt', version: 3 })).changes).toEqual([]);

    // A write's `changes` undo it, parents created by it included.
    const write = await files().write(scope, { path: 'deep/er/x.txt', content: 'new' });
    expect(write.changes.map((c) => [c.path, c.previousVersion])).toEqual([
      ['deep', null],
      ['deep/er', null],
      ['deep/er/x.txt', null],
    ]);
    expect(await files().rollback(scope, write.changes)).toEqual({ undone: 3 });
    await expect(files().stat(scope, { path: 'deep' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // An overwrite rolls back to the previous content; a change made since is a CONFLICT, not lost.
    const over = await files().write(scope, { path: 'r.txt', content: 'three' });
    await files().rollback(scope, over.changes);
    expect((await files().read(scope, { path: 'r.txt' })).data).toBe('one');
    const again = await files().write(scope, { path: 'r.txt', content: 'four' });
    await files().write(scope, { path: 'r.txt', content: 'someone else' });
    await expect(files().rollback(scope, again.changes)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { path: 'r.txt', undone: 0 },
    });
    expect((await files().read(scope, { path: 'r.txt' })).data).toBe('someone else');
    // restoreVersion(null) of a file that did not exist before deletes it.
    const created = await files().write(scope, { path: 'tmp.txt', content: 't' });
    await files().restoreVersion(scope, {
      path: 'tmp.txt',
      version: null,
      expectedVersion: created.entry.version,
    });
    await expect(files().read(scope, { path: 'tmp.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('20 parallel writes with the same expectedVersion: exactly one wins, the others CONFLICT', async () => {
    const { files: store, documents } = target();
    const scope = agentScope();
    const first = await store.write(scope, { path: 'race.txt', content: 'base' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        store.write(scope, {
          path: 'race.txt',
          content: `writer ${i}`,
          expectedVersion: first.entry.version,
        }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect(r.reason).toMatchObject({ code: 'CONFLICT', details: { path: 'race.txt' } });
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof store.write>>>).value;
    const now = await store.read(scope, { path: 'race.txt' });
    expect(now.version).toBe(2);
    expect(now.sha256).toBe(winner.entry.sha256);
    // The losers' bytes were removed: only the two committed versions remain.
    const doc = await documents.db
      .collection('files')
      .findOne({ ownerKey: `agent:${scope.agentId}`, path: 'race.txt' });
    expect(await documents.db.collection('file_versions').countDocuments({ fileId: doc?._id })).toBe(2);

    // Creating: expectedVersion 0 means "must not exist"; 20 creators, one file.
    const creates = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        store.write(scope, { path: 'new/born.txt', content: `c${i}`, expectedVersion: 0 }),
      ),
    );
    expect(creates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of creates.filter((c): c is PromiseRejectedResult => c.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'CONFLICT' });
    }
    // A stale expectedVersion is refused with the current version in details.
    await expect(
      store.write(scope, { path: 'race.txt', content: 'late', expectedVersion: 1 }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { expectedVersion: 1, currentVersion: 2 },
    });
  });

  it('lists by directory, children or recursive, with pages', async () => {
    const scope = agentScope();
    for (const p of [
      'docs/a.md',
      'docs/b.md',
      'docs/sub/c.md',
      'docs/sub/deeper/d.md',
      'top.txt',
      'docsx.txt',
    ]) {
      await files().write(scope, { path: p, content: p });
    }
    const paths = async (input: Parameters<ReturnType<typeof files>['list']>[1]) =>
      (await files().list(scope, input)).entries.map((e) => `${e.path}${e.kind === 'dir' ? '/' : ''}`);
    expect(await paths({})).toEqual(['docs/', 'docsx.txt', 'top.txt']);
    expect(await paths({ prefix: 'docs' })).toEqual(['docs/a.md', 'docs/b.md', 'docs/sub/']);
    expect(await paths({ prefix: './docs/' })).toEqual(['docs/a.md', 'docs/b.md', 'docs/sub/']);
    expect(await paths({ prefix: 'docs', recursive: true })).toEqual([
      'docs/a.md',
      'docs/b.md',
      'docs/sub/',
      'docs/sub/c.md',
      'docs/sub/deeper/',
      'docs/sub/deeper/d.md',
    ]);
    const first = await files().list(scope, { prefix: 'docs', recursive: true, limit: 4 });
    expect(first.entries).toHaveLength(4);
    const second = await files().list(scope, {
      prefix: 'docs',
      recursive: true,
      limit: 4,
      cursor: first.nextCursor ?? '',
    });
    expect(second.entries.map((e) => e.path)).toEqual(['docs/sub/deeper', 'docs/sub/deeper/d.md']);
    expect(second.nextCursor).toBeNull();
    await expect(files().list(scope, { prefix: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(files().list(scope, { prefix: 'top.txt' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(files().list(scope, { cursor: 'garbage' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    // Another agent's space is separate.
    expect((await files().list(agentScope(), {})).entries).toEqual([]);
  });

  it('mkdir is idempotent; a file and a directory never share a path', async () => {
    const scope = agentScope();
    const made = await files().mkdir(scope, { path: 'a/b/' });
    expect(made).toMatchObject({ created: true, entry: { path: 'a/b', kind: 'dir' } });
    expect(made.changes.map((c) => c.path)).toEqual(['a', 'a/b']);
    expect(await files().mkdir(scope, { path: 'a/b' })).toMatchObject({ created: false, changes: [] });
    await expect(files().write(scope, { path: 'a/b', content: 'x' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'a/b is a directory',
    });
    await files().write(scope, { path: 'a/f.txt', content: 'x' });
    await expect(files().mkdir(scope, { path: 'a/f.txt' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(files().write(scope, { path: 'a/f.txt/inner', content: 'x' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'a/f.txt is a file, not a directory',
    });
    await expect(files().read(scope, { path: 'a' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(files().delete(scope, { path: 'a' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'a is not empty',
    });
  });

  it('renames a file (history kept on both paths) and refuses to overwrite', async () => {
    const scope = agentScope();
    await files().write(scope, { path: 'old.txt', content: 'v1' });
    await files().write(scope, { path: 'old.txt', content: 'v2' });
    await files().write(scope, { path: 'taken.txt', content: 'keep me' });
    await expect(files().rename(scope, { path: 'old.txt', nextPath: 'taken.txt' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'taken.txt already exists',
    });
    expect((await files().read(scope, { path: 'taken.txt' })).data).toBe('keep me');

    const moved = await files().rename(scope, { path: 'old.txt', nextPath: 'moved/new.json' });
    expect(moved).toMatchObject({
      previousPath: 'old.txt',
      entry: { path: 'moved/new.json', contentType: 'application/json' },
    });
    expect((await files().read(scope, { path: 'moved/new.json' })).data).toBe('v2');
    await expect(files().stat(scope, { path: 'old.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await files().read(scope, { path: 'old.txt', version: 1 })).data).toBe('v1');

    // Rolling the rename back puts the file where it was.
    await files().rollback(scope, moved.changes);
    expect((await files().read(scope, { path: 'old.txt' })).data).toBe('v2');
    await expect(files().stat(scope, { path: 'moved' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await expect(files().rename(scope, { path: 'missing', nextPath: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(files().rename(scope, { path: 'old.txt', nextPath: './old.txt' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await files().mkdir(scope, { path: 'full/sub' });
    await expect(files().rename(scope, { path: 'full', nextPath: 'empty' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await files().rename(scope, { path: 'full/sub', nextPath: 'sub2' })).entry).toMatchObject({
      kind: 'dir',
    });
  });

  it('delete keeps versions: read is NOT_FOUND, restore brings the file back', async () => {
    const scope = agentScope();
    await files().write(scope, { path: 'd/gone.txt', content: 'precious' });
    const del = await files().delete(scope, { path: 'd/gone.txt' });
    expect(del).toMatchObject({
      path: 'd/gone.txt',
      kind: 'file',
      deleted: true,
      version: 2,
      previousVersion: 1,
    });
    await expect(files().read(scope, { path: 'd/gone.txt' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such file or directory: d/gone.txt',
    });
    await expect(files().stat(scope, { path: 'd/gone.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(files().delete(scope, { path: 'd/gone.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await files().list(scope, { prefix: 'd' })).entries).toEqual([]);
    // Now empty, the directory can go too.
    const delDir = await files().delete(scope, { path: 'd' });

    await files().rollback(scope, [...del.changes, ...delDir.changes]);
    expect(await files().read(scope, { path: 'd/gone.txt' })).toMatchObject({ data: 'precious', version: 3 });
    expect(await files().stat(scope, { path: 'd' })).toMatchObject({ kind: 'dir' });

    // Writing over a deleted path continues its versions; the revived file starts private.
    await files().delete(scope, { path: 'd/gone.txt' });
    const revived = await files().write(scope, { path: 'd/gone.txt', content: 'new life' });
    expect(revived).toMatchObject({
      created: true,
      previousVersion: null,
      entry: { version: 5, visibility: 'private' },
    });
  });

  it('visibility changes are versions too, and workspace visibility needs a workspace', async () => {
    const scope = agentScope();
    await files().write(scope, { path: 'p.txt', content: 'x' });
    await expect(
      files().setVisibility(scope, { path: 'p.txt', visibility: 'workspace' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const pub = await files().setVisibility(scope, { path: 'p.txt', visibility: 'public' });
    expect(pub).toMatchObject({ previousVisibility: 'private', entry: { visibility: 'public', version: 2 } });
    await files().rollback(scope, pub.changes);
    expect(await files().stat(scope, { path: 'p.txt' })).toMatchObject({ visibility: 'private', version: 3 });
  });
});
