import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { updateIndexSchema, type UpdateIndex } from '../../../../shared/src/api/updates/updates.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { verifyDetached, type TrustedKey } from '../../core/signed-index.ts';
import { compareDebianVersions, debianVersionPattern } from '../../host/updates/debian-version.ts';

/**
 * The checks a release passes before the box takes it, from a channel or an uploaded bundle:
 * a trusted signature over the index's exact bytes, a readable index, a package for this
 * architecture, a version newer than the installed one, and later the package's hash.
 */
export function verifiedIndex(data: Buffer, signature: string | null, keys: readonly TrustedKey[]): UpdateIndex {
  const check = verifyDetached(data, signature, keys);
  if (!check.ok) throw new ProblemError('system.update.unsigned', { reason: check.reason });
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new ProblemError('system.update.invalid', { reason: 'index.json is not JSON' });
  }
  const { value, error } = updateIndexSchema.validate(parsed);
  if (error) throw new ProblemError('system.update.invalid', { reason: error.message });
  if (!debianVersionPattern.test(value.version)) throw new ProblemError('system.update.invalid', { reason: 'the version is not a Debian version' });
  return value;
}

export function packageFor(index: UpdateIndex, architecture: string): UpdateIndex['packages'][number] {
  // Architecture-independent packages (`all`) fit every box.
  const found = index.packages.find((p) => p.architecture === architecture) ?? index.packages.find((p) => p.architecture === 'all');
  if (!found) throw new ProblemError('system.update.architecture', { architecture: index.packages.map((p) => p.architecture).join(', '), box: architecture });
  return found;
}

export function requireNewer(version: string, installed: string): void {
  if (compareDebianVersions(version, installed) <= 0) throw new ProblemError('system.update.not_newer', { version, installed });
}

export async function requireHash(file: string, expected: { file: string; sha256: string; size: number }): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  if (size !== expected.size || hash.digest('hex') !== expected.sha256) throw new ProblemError('system.update.hash_mismatch', { file: expected.file });
}

/** Debian's name of the architecture Node runs on: the box's own. */
export function debianArchitecture(arch: string = process.arch): string {
  return (
    ({ x64: 'amd64', arm64: 'arm64', arm: 'armhf', ia32: 'i386', ppc64: 'ppc64el', s390x: 's390x', riscv64: 'riscv64' } as Record<string, string>)[arch] ?? arch
  );
}
