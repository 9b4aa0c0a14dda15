import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'mongod.lock';
/** Directories held by this process (a pid check cannot tell two servers of one process apart). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Keeps two servers from using one data directory at once (two journals appending to one file
 * would corrupt it). The lock file holds the owner's pid; a lock left by a dead process (kill -9)
 * is taken over.
 */
export class DataDirLock {
  private released = false;

  private constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  static acquire(dir: string): DataDirLock {
    const resolved = path.resolve(dir);
    const file = path.join(resolved, LOCK_FILE);
    if (heldHere.has(resolved)) throw new Error(`data directory ${dir} is already in use by this process`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        heldHere.add(resolved);
        return new DataDirLock(resolved, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        let owner = NaN;
        try {
          owner = Number(readFileSync(file, 'utf8').trim());
        } catch {
          // vanished meanwhile: retry
        }
        if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
          throw new Error(`data directory ${dir} is in use by process ${owner}`, { cause: err });
        }
        rmSync(file, { force: true });
      }
    }
    throw new Error(`could not lock data directory ${dir}`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.dir);
    try {
      rmSync(this.file, { force: true });
    } catch {
      // best effort: a stale lock is taken over on the next start anyway
    }
  }
}
