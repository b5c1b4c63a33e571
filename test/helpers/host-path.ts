import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * PATH without the folders that hold any of `programs`: a daemon in this process then finds none
 * of them, whatever this machine has installed (zfs-fuse, say, lists every pool on the machine).
 * Restore the returned PATH afterwards.
 */
export function hidePrograms(programs: string[]): () => void {
  const saved = process.env.PATH ?? '';
  const kept = saved.split(':').filter((dir) => dir && !programs.some((p) => existsSync(path.join(dir, p))));
  // Merged /usr: /sbin and /bin name the same folders as /usr/sbin and /usr/bin.
  const hidden = new Set(
    saved
      .split(':')
      .filter((dir) => !kept.includes(dir))
      .map((dir) => dir.replace(/^\/usr/, '')),
  );
  process.env.PATH = kept.filter((dir) => !hidden.has(dir.replace(/^\/usr/, ''))).join(':');
  return () => {
    process.env.PATH = saved;
  };
}
