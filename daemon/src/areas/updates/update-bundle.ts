import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { x as untar } from 'tar';
import type { UpdateIndex } from '../../../../shared/src/api/updates/updates.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TrustedKey } from '../../core/signed-index.ts';
import { packageFor, requireHash, verifiedIndex } from './signed-release.ts';

const plainName = /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/;

/**
 * Unpacks an uploaded bundle (a tar of index.json, index.json.sig and the package) into `dir`,
 * taking only plain files at the top level, and checks it: signature, architecture, hash.
 * The caller checks the version against the installed one.
 */
export async function readBundle(
  body: Readable,
  dir: string,
  keys: readonly TrustedKey[],
  architecture: string,
): Promise<{ index: UpdateIndex; file: string }> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const refused: string[] = [];
  try {
    await pipeline(
      body,
      untar({
        cwd: dir,
        strict: true,
        filter: (entry, stat) => {
          const name = entry.replace(/^\.\//, '');
          const ok = (stat as { type?: string }).type === 'File' && plainName.test(name);
          if (!ok && name !== '' && name !== '.') refused.push(name);
          return ok;
        },
      }),
    );
  } catch (err) {
    if (err instanceof ProblemError) throw err;
    throw new ProblemError('system.update.invalid', { reason: 'not a tar archive' }, { cause: err });
  }
  if (refused.length > 0) throw new ProblemError('system.update.invalid', { reason: `unexpected entries: ${refused.slice(0, 5).join(', ')}` });
  const read = (name: string) => readFile(path.join(dir, name)).catch(() => null);
  const data = await read('index.json');
  if (!data) throw new ProblemError('system.update.invalid', { reason: 'index.json is missing' });
  const sig = await read('index.json.sig');
  const index = verifiedIndex(data, sig ? sig.toString('utf8') : null, keys);
  const pkg = packageFor(index, architecture);
  const file = path.join(dir, pkg.file);
  await requireHash(file, pkg).catch((err: unknown) => {
    if (err instanceof ProblemError) throw err;
    throw new ProblemError('system.update.invalid', { reason: `${pkg.file} is missing` });
  });
  return { index, file };
}
