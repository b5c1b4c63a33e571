import { filesRoutes, type FileEntry } from '../../../../shared/src/api/files/files.ts';
import { buildUrl } from '../../../../shared/src/client.ts';

export function downloadUrlOf(shareId: number, entry: FileEntry): string {
  return buildUrl(filesRoutes.download, { shareId }, { path: entry.path });
}

/** A plain link download: the browser shows its own progress and can resume it. */
export function download(shareId: number, entry: FileEntry): void {
  const link = document.createElement('a');
  link.href = downloadUrlOf(shareId, entry);
  link.download = entry.name;
  link.click();
}

/** Waits up to two seconds for a condition (a live change to arrive). */
export async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 40 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}
