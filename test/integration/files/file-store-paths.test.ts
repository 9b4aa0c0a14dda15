import { FILE_LIMITS, normalizeFilePath, parentPaths } from '../../../schemas/documents/file';
import { FsWriteInputSchema } from '../../../schemas/tools/fs';
import { agentScope, useFileStore } from './file-store-support';

const ok = (path: string, trailingSlash = false) => ({ ok: true, path, trailingSlash });

describe('file paths: normalization and refusals', () => {
  it.each([
    ['a.txt', ok('a.txt')],
    ['./a.txt', ok('a.txt')],
    ['a//b///c.txt', ok('a/b/c.txt')],
    ['a/./b/./c', ok('a/b/c')],
    ['dir/', ok('dir', true)],
    ['dir/.', ok('dir', true)],
    ['Case/File.TXT', ok('Case/File.TXT')],
    ['.hidden/..dots../x', ok('.hidden/..dots../x')],
    ['with space/ünïcödé 🚀.md', ok('with space/ünïcödé 🚀.md')],
    // NFC: "e" + combining acute is stored as "é".
    ['cafe\u0301', ok('caf\u00e9')],
  ])('normalizes %j', (raw, expected) => {
    expect(normalizeFilePath(raw)).toEqual(expected);
  });

  it.each([
    ['../x', 'parent_segment'],
    ['a/../../b', 'parent_segment'],
    ['a/..', 'parent_segment'],
    ['..', 'parent_segment'],
    ['/etc/passwd', 'absolute'],
    ['//server/share', 'absolute'],
    ['C:/Windows', 'absolute'],
    ['a\\b', 'backslash'],
    ['..\\..\\x', 'backslash'],
    ['a\u0000b', 'control_character'],
    ['a\nb', 'control_character'],
    ['a\u007fb', 'control_character'],
    ['a\u0085b', 'control_character'],
    ['bad\ud800', 'invalid_unicode'],
    ['', 'empty'],
    ['.', 'empty'],
    ['./', 'empty'],
    ['x'.repeat(FILE_LIMITS.maxPathBytes + 1), 'segment_too_long'],
    [`${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(200)}`, 'too_long'],
    ['y'.repeat(100_000), 'too_long'],
    [Array.from({ length: FILE_LIMITS.maxDepth + 1 }, () => 'd').join('/'), 'too_deep'],
  ])('refuses %j (%s)', (raw, reason) => {
    expect(normalizeFilePath(raw)).toMatchObject({ ok: false, reason });
  });

  it('accepts the root only where asked (listings), and limits at the edges', () => {
    expect(normalizeFilePath('', { allowRoot: true })).toEqual(ok('', true));
    expect(normalizeFilePath('./', { allowRoot: true })).toEqual(ok('', true));
    expect(normalizeFilePath(Array.from({ length: FILE_LIMITS.maxDepth }, () => 'd').join('/')).ok).toBe(
      true,
    );
    expect(normalizeFilePath('é'.repeat(127)).ok).toBe(true); // 254 bytes
    expect(normalizeFilePath('é'.repeat(128))).toMatchObject({ ok: false, reason: 'segment_too_long' });
    expect(normalizeFilePath(42)).toMatchObject({ ok: false, reason: 'not_string' });
    expect(parentPaths('a/b/c')).toEqual(['a', 'a/b']);
    expect(parentPaths('a')).toEqual([]);
  });

  it('the fs_write schema says the same, with readable messages', () => {
    const issue = (input: unknown) => {
      const r = FsWriteInputSchema.safeParse(input);
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issue({ path: 'ok.txt', content: 'x' })).toBeNull();
    expect(issue({ path: 'ok.txt', data: 'aGk=' })).toBeNull();
    expect(issue({ path: '../x', content: 'x' })).toEqual(['path: path must not contain .. segments']);
    expect(issue({ path: '/etc/passwd', content: 'x' })).toEqual([
      'path: path must be relative (no leading /)',
    ]);
    expect(issue({ path: 'dir/', content: 'x' })).toEqual(['path: a file path must not end with /']);
    expect(issue({ path: 'x', data: 'aGk=', content: 'x' })).toEqual([
      'data: give exactly one of data (base64) or content (utf8)',
    ]);
    expect(issue({ path: 'x', data: 'a=b=' })).toEqual(['data: is not valid base64']);
    expect(issue({ path: 'x', data: 'plain text', encoding: 'utf8' })).toBeNull();
  });

  describe('through the store', () => {
    const target = useFileStore();

    it('stores the normalized path and refuses bad ones with VALIDATION_ERROR naming the problem', async () => {
      const scope = agentScope();
      const { files } = target();
      expect((await files.write(scope, { path: './x//y/./z.txt', content: 'z' })).entry.path).toBe(
        'x/y/z.txt',
      );
      expect((await files.read(scope, { path: 'x/y/z.txt' })).data).toBe('z');
      // Case-sensitive: another file.
      await expect(files.read(scope, { path: 'X/y/z.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      for (const [path, reason] of [
        ['../x', 'parent_segment'],
        ['/etc/passwd', 'absolute'],
        ['a/../../b', 'parent_segment'],
        ['a\u0000b', 'control_character'],
        ['z'.repeat(5000), 'too_long'],
      ] as const) {
        await expect(files.write(scope, { path, content: 'x' })).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^Invalid path: /),
          details: { field: 'path', reason },
        });
      }
      await expect(files.rename(scope, { path: 'x/y/z.txt', nextPath: '../z' })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'nextPath', reason: 'parent_segment' },
      });
    });
  });
});
