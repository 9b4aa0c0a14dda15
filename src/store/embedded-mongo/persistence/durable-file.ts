import { promises as fsp } from 'node:fs';
import path from 'node:path';

/**
 * Replaces `target` with `buffers` so that a crash at any point leaves either the old file or the
 * complete new one: write a temporary file, fsync it, rename it over the target, fsync the
 * directory (so the rename itself survives a power loss). Returns the new file's size.
 */
export async function writeFileDurably(target: string, buffers: Buffer[]): Promise<number> {
  const tmp = `${target}.tmp`;
  const handle = await fsp.open(tmp, 'w');
  let size = 0;
  try {
    // Bounded slices keep each writev call reasonable for very large snapshots.
    for (let i = 0; i < buffers.length; i += 512) {
      const slice = buffers.slice(i, i + 512);
      let bytes = 0;
      for (const b of slice) bytes += b.length;
      const { bytesWritten } = await handle.writev(slice);
      if (bytesWritten !== bytes) throw new Error(`short write to ${path.basename(tmp)}`);
      size += bytes;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, target);
  await syncDirectory(path.dirname(target));
  return size;
}

/** fsync of a directory, so that a rename or a new file in it is durable. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    if ((err as NodeJS.ErrnoException).code !== 'EISDIR' && (err as NodeJS.ErrnoException).code !== 'EPERM')
      throw err;
  } finally {
    await handle?.close();
  }
}
