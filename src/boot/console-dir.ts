import path from 'node:path';

/**
 * The folder of the built console, `dist/console` under the package root (`npm run build` writes
 * it there; the Docker image copies `dist/`). This file runs from `src/boot` (sources, tests) or
 * from `dist/src/boot` (the build): two folders up is the root, or the root's `dist`.
 */
export function consoleDir(from: string = __dirname): string {
  const up = path.resolve(from, '..', '..');
  return path.basename(up) === 'dist' ? path.join(up, 'console') : path.join(up, 'dist', 'console');
}
