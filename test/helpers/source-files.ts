import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The source files below `dir` whose names match `names`, tests left out: what the repository's
 * checks on its own code (log codes, reason codes, operations with screens) read.
 */
export function sourceFiles(dir: string, names = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && names.test(entry.name) && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.split(path.sep).some((part) => part === 'node_modules' || part === 'dist'));
}
