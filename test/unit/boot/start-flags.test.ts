import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeFlagsOfStart } from '../../../bench/support/start-flags';

/**
 * The Node flags of the service are written once, in package.json's `start`: the image must run
 * the same (Dockerfile CMD), and the benchmarks read them from there (bench/support/start-flags.ts).
 */

const ROOT = path.resolve(__dirname, '../../..');

describe('the Node flags of `npm start`', () => {
  it('give the service a larger young generation, and the image runs the same command', () => {
    const flags = nodeFlagsOfStart();
    expect(flags).toContain('--max-semi-space-size=32');
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1]!)).toEqual(['node', ...flags, 'dist/src/main.js']);
  });

  it('are the options between `node` and the script, and a start that is not `node` is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-start-flags-'));
    try {
      const file = path.join(dir, 'package.json');
      fs.writeFileSync(file, JSON.stringify({ scripts: { start: 'node --a=1  --b dist/x.js --not-mine' } }));
      expect(nodeFlagsOfStart(file)).toEqual(['--a=1', '--b']);
      fs.writeFileSync(file, JSON.stringify({ scripts: { start: 'tsx src/main.ts' } }));
      expect(() => nodeFlagsOfStart(file)).toThrow(/does not run node/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
