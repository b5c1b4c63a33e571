/**
 * Dropped or picked folders as a list of folders to create and files to upload. The walk works on a
 * minimal view of the browser's FileSystemEntry (webkitGetAsEntry), so tests can give it fake trees.
 */

/** The part of FileSystemEntry / FileSystemFileEntry / FileSystemDirectoryEntry the walk uses. */
export interface TreeEntry<F> {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  file?(success: (file: F) => void, failure?: (err: unknown) => void): void;
  createReader?(): { readEntries(success: (batch: TreeEntry<F>[]) => void, failure?: (err: unknown) => void): void };
}

export interface UploadTree<F> {
  /** Folders to create, relative to the target folder, each after its parent. */
  folders: string[];
  /** Files with the folder they go into, relative to the target folder ('' for the target itself). */
  files: { dir: string; file: F }[];
  /** Entries left out: unreadable, or neither a file nor a folder (links and specials the browser shows as such). */
  skipped: number;
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** The share path of a tree folder (or of the tree's top, '') below the folder it was dropped into. */
export function placeIn(base: string, dir: string): string {
  if (dir === '') return base;
  return join(base, dir);
}

/** Every entry of a folder: readEntries answers in batches (Chrome: 100) until it answers an empty one. */
async function readAll<F>(folder: TreeEntry<F>): Promise<TreeEntry<F>[]> {
  const reader = folder.createReader?.();
  if (!reader) return [];
  const all: TreeEntry<F>[] = [];
  for (;;) {
    const batch = await new Promise<TreeEntry<F>[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function fileOf<F>(entry: TreeEntry<F>): Promise<F> {
  return new Promise((resolve, reject) => {
    if (!entry.file) reject(new Error('not a file'));
    else entry.file(resolve, reject);
  });
}

/** Walks the dropped entries depth first; an unreadable entry is counted as skipped, the rest goes on. */
export async function walkEntries<F>(roots: readonly TreeEntry<F>[]): Promise<UploadTree<F>> {
  const tree: UploadTree<F> = { folders: [], files: [], skipped: 0 };
  const visit = async (entry: TreeEntry<F>, dir: string): Promise<void> => {
    try {
      if (entry.isFile) tree.files.push({ dir, file: await fileOf(entry) });
      else if (entry.isDirectory) {
        const path = join(dir, entry.name);
        const children = await readAll(entry);
        tree.folders.push(path);
        for (const child of children) await visit(child, path);
      } else tree.skipped++;
    } catch {
      tree.skipped++;
    }
  };
  for (const root of roots) await visit(root, '');
  return tree;
}

/**
 * Files picked with <input webkitdirectory>: each names its place in `webkitRelativePath`
 * ("Photos/2024/a.jpg"). Empty folders are not reported by the browser, so they are not created.
 */
export function treeFromRelativePaths<F extends { name: string; webkitRelativePath: string }>(files: readonly F[]): UploadTree<F> {
  const folders = new Set<string>();
  const tree: UploadTree<F> = { folders: [], files: [], skipped: 0 };
  for (const file of files) {
    const parts = (file.webkitRelativePath || file.name).split('/').filter((p) => p !== '');
    parts.pop();
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (!folders.has(folder)) {
        folders.add(folder);
        tree.folders.push(folder);
      }
    }
    tree.files.push({ dir: parts.join('/'), file });
  }
  return tree;
}
