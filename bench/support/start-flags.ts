import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Node flags `npm start` gives the service (the options between `node` and the script in
 * package.json's `start`), for the benchmarks' service processes: they then measure the service
 * as it is started, not as a bare `node` would run it. Read, not copied, so the two cannot drift.
 */
export function nodeFlagsOfStart(packageJson = packageJsonPath()): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: { start?: string } };
  const words = (scripts?.start ?? '').trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json start does not run node: ${scripts?.start ?? ''}`);
  const script = words.findIndex((w, i) => i > 0 && !w.startsWith('-'));
  return words.slice(1, script < 0 ? undefined : script);
}

/** package.json of the project, from this file compiled (dist/bench/support) or not (bench/support). */
function packageJsonPath(): string {
  const up = __filename.endsWith('.js') ? '../../..' : '../..';
  return path.resolve(__dirname, up, 'package.json');
}
