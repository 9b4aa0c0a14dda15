import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTaskFile } from '../../../src/sandbox/task-file';

describe('resolveTaskFile', () => {
  let root: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'task-file-'));
    fs.mkdirSync(path.join(root, 'src', 'sandbox'), { recursive: true });
    fs.mkdirSync(path.join(root, 'dist', 'src', 'sandbox'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'sandbox', 'quickjs.task.js'), '');
  });

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds the task next to the sandbox sources (jest runs them in place)', () => {
    const file = resolveTaskFile(path.resolve(__dirname, '../../../src/sandbox'));
    expect(path.basename(file)).toBe('quickjs.task.js');
    expect(fs.existsSync(file)).toBe(true);
  });

  it('prefers the copy in dist, else falls back to the source twin', () => {
    const distDir = path.join(root, 'dist', 'src', 'sandbox');
    expect(resolveTaskFile(distDir)).toBe(path.join(root, 'src', 'sandbox', 'quickjs.task.js'));
    fs.writeFileSync(path.join(distDir, 'quickjs.task.js'), '');
    expect(resolveTaskFile(distDir)).toBe(path.join(distDir, 'quickjs.task.js'));
  });

  it('says what is missing when there is no task file at all', () => {
    expect(() => resolveTaskFile(path.join(root, 'elsewhere'))).toThrow(/task file not found.*allowJs/);
  });
});
