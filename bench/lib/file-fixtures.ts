import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/**
 * Fixtures the files benchmark keeps between runs, because making them costs more than
 * the measures: `folder-100k/` (100,000 empty files) and `download/big.bin` (1 GiB of
 * pseudo-random bytes). Each is complete only when its `.done` marker beside it says so;
 * remove /tmp/cellar-bench-fixtures to get rid of them (about 1 GiB).
 */
export const fixturesRoot = '/tmp/cellar-bench-fixtures';
export const folderEntries = 100_000;
export const downloadBytes = 1024 * 1024 * 1024;

function complete(marker: string, expected: string): boolean {
  return existsSync(marker) && readFileSync(marker, 'utf8') === expected;
}

/** Names that exercise the natural, case-insensitive sort: mixed case and numbers of every width. */
function entryName(i: number): string {
  const stem = ['Report', 'photo', 'IMG_', 'notes', 'Backup'][i % 5] ?? 'file';
  return `${stem}${i}.${['txt', 'jpg', 'pdf', 'md'][i % 4] ?? 'bin'}`;
}

export function bigFolder(): string {
  const folder = path.join(fixturesRoot, 'folder-100k');
  const marker = `${folder}.done`;
  if (complete(marker, String(folderEntries))) return folder;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < folderEntries; i++) closeSync(openSync(path.join(folder, entryName(i)), 'w'));
  writeFileSync(marker, String(folderEntries));
  return folder;
}

/** The 1 GiB file, with real bytes on disk (a sparse file would be read from nothing). */
export async function bigFile(): Promise<{ folder: string; name: string; bytes: number }> {
  const folder = path.join(fixturesRoot, 'download');
  const name = 'big.bin';
  const marker = `${folder}.done`;
  if (complete(marker, String(downloadBytes))) return { folder, name, bytes: downloadBytes };
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const block = randomBytes(1024 * 1024);
  const handle = await open(path.join(folder, name), 'w');
  try {
    for (let i = 0; i < downloadBytes / block.length; i++) {
      // A different first word per MiB, so no two blocks are the same (nothing can deduplicate them).
      block.writeUInt32LE(i, 0);
      await handle.write(block);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  writeFileSync(marker, String(downloadBytes));
  return { folder, name, bytes: downloadBytes };
}
