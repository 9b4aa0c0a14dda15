import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  formatIdentity,
  ownerState,
  ownIdentity,
  parseIdentity,
  type OwnerState,
  type ProcessIdentity,
} from './process-identity';

const LOCK_FILE = 'mongod.lock';
/** Directories held by this process (a pid check cannot tell two servers of one process apart). */
const heldHere = new Set<string>();

/** A lock left by a process that no longer holds the directory, taken over at start. */
export interface TakenOver {
  pid: number;
  state: Exclude<OwnerState, 'live'>;
}

/**
 * Keeps two servers from using one data directory at once (two journals appending to one file
 * would corrupt it), and lets a server restarted right after a crash take the directory over.
 *
 * Two locks, both released by the kernel's view of things rather than by the owner's goodwill:
 * - On Linux, a listening socket in the abstract namespace named after the directory (its device
 *   and inode). The kernel closes it when its process exits, however it exits (kill -9 included),
 *   zombie or not, and only one process can bind a name: while it is bound, the directory is in use.
 * - The lock file `mongod.lock`, which says who holds the directory: the pid, its start time and
 *   the boot's id (process-identity.ts). A live owner is one whose pid still names the same process
 *   (same start time) and is not a zombie; a dead owner, a zombie, a pid now used by another process
 *   and a lock from before a reboot are all taken over. It covers what the socket cannot see:
 *   another network namespace, a server of an older version, systems without abstract sockets
 *   (where only `kill(pid, 0)` can be asked).
 */
export class DataDirLock {
  private released = false;

  private constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly socket: net.Server | undefined,
    /** The previous owner whose lock was taken over, if any (for the log). */
    readonly tookOver: TakenOver | undefined,
  ) {}

  static async acquire(dir: string): Promise<DataDirLock> {
    const resolved = path.resolve(dir);
    const file = path.join(resolved, LOCK_FILE);
    if (heldHere.has(resolved)) throw new Error(`data directory ${dir} is already in use by this process`);
    heldHere.add(resolved);
    let socket: net.Server | undefined;
    try {
      const bound = await bindDirSocketOnceOwnerGone(resolved, file);
      if (bound === null) throw inUse(dir, readOwner(file)?.pid);
      socket = bound;
      const tookOver = takeLockFile(dir, file);
      return new DataDirLock(resolved, file, socket, tookOver);
    } catch (err) {
      heldHere.delete(resolved);
      socket?.close();
      throw err;
    }
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
    this.socket?.close();
  }
}

function inUse(dir: string, pid: number | undefined, cause?: unknown): Error {
  const by = pid === undefined ? 'another process' : `process ${pid}`;
  return new Error(`data directory ${dir} is in use by ${by}`, cause === undefined ? undefined : { cause });
}

function readOwner(file: string): (ProcessIdentity & { writtenAtMs: number }) | undefined {
  try {
    const owner = parseIdentity(readFileSync(file, 'utf8'));
    return owner && { ...owner, writtenAtMs: statSync(file).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Writes this process's identity into the lock file, taking over a lock whose owner is gone.
 * Refuses (throws "in use") when the owner is alive.
 */
function takeLockFile(dir: string, file: string): TakenOver | undefined {
  let tookOver: TakenOver | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, formatIdentity(ownIdentity()), { flag: 'wx' });
      return tookOver;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      if (owner && owner.pid !== process.pid) {
        const state = ownerState(owner, owner.writtenAtMs);
        if (state === 'live') throw inUse(dir, owner.pid, err);
        tookOver = { pid: owner.pid, state };
      }
      // Gone, unreadable, or this very pid (a restarted container's pid 1): not an owner.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}

/** How long a dying owner may keep the socket bound (see `bindDirSocketOnceOwnerGone`). */
const DYING_OWNER_WAIT_MS = 5000;
const DYING_OWNER_POLL_MS = 25;

/**
 * Binds the directory's socket; when it is held by an owner that is no longer live (its lock file
 * names a zombie, a dead or a reused pid), waits for the kernel to release it. A process killed
 * with -9 closes its files only once every one of its threads has exited: its main thread may
 * already be a zombie while a worker thread is still being torn down (seen under load), and the
 * socket stays bound meanwhile. A live owner is refused at once.
 */
async function bindDirSocketOnceOwnerGone(dir: string, file: string): Promise<net.Server | null | undefined> {
  const deadline = Date.now() + DYING_OWNER_WAIT_MS;
  for (;;) {
    const bound = await bindDirSocket(dir);
    if (bound !== null) return bound;
    const owner = readOwner(file);
    const dying =
      owner !== undefined && owner.pid !== process.pid && ownerState(owner, owner.writtenAtMs) !== 'live';
    if (!dying || Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, DYING_OWNER_POLL_MS));
  }
}

/**
 * Binds the directory's abstract socket: the server (unref'd, it accepts nothing) when bound, null
 * when another process holds it, undefined where abstract sockets do not exist (not Linux).
 */
async function bindDirSocket(dir: string): Promise<net.Server | null | undefined> {
  if (process.platform !== 'linux') return undefined;
  const { dev, ino } = statSync(dir);
  const name = `\0agent-runtime-service/embedded-mongo/${dev}:${ino}`;
  const server = net.createServer((connection) => connection.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(null);
      else if (err.code === 'EINVAL' || err.code === 'ENOTSUP') resolve(undefined);
      else reject(err);
    });
    server.listen(name, () => {
      server.unref();
      resolve(server);
    });
  });
}
