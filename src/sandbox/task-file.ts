import fs from 'node:fs';
import path from 'node:path';

const TASK_FILE = 'quickjs.task.js';

/**
 * Where the Piscina task file is. It is plain JavaScript so that one file runs under jest (TypeScript
 * sources) and from a build: first next to this module (src/sandbox under jest, dist/src/sandbox when
 * the build copies it), then, for a build that did not copy it, its twin in the source tree.
 * @param dir the directory of the calling module (default: this module's)
 */
export function resolveTaskFile(dir: string = __dirname): string {
  const candidates = [path.join(dir, TASK_FILE)];
  // dist/src/sandbox -> src/sandbox: the build mirrors the tree under one extra directory level.
  const parts = dir.split(path.sep);
  const distIndex = parts.lastIndexOf('dist');
  if (distIndex >= 0) {
    candidates.push(
      path.join([...parts.slice(0, distIndex), ...parts.slice(distIndex + 1)].join(path.sep), TASK_FILE),
    );
  }
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) {
    throw new Error(
      `Sandbox task file not found (looked at ${candidates.join(', ')}); the build must emit src/sandbox/*.js (allowJs)`,
    );
  }
  return found;
}
