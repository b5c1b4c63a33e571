import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { create as createTar } from 'tar';
import type { UpdateIndex } from '../../shared/src/api/updates/updates.ts';
import { signDetached } from '../../daemon/src/core/signed-index.ts';

/** A signing key of the test's own, and the key file a development daemon trusts it by (`trustedKeysFile`). */
export class TestSigner {
  readonly keyFile: string;
  private readonly privatePem: string;

  constructor(
    dir: string,
    readonly keyId = 'test-updates',
  ) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.keyFile = path.join(dir, 'trusted-keys.json');
    if (!existsSync(this.keyFile)) writeFileSync(this.keyFile, JSON.stringify([{ id: keyId, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) }]));
  }

  sign(data: Buffer): string {
    return signDetached(data, this.privatePem, this.keyId);
  }
}

/** A tiny Debian package built with dpkg-deb; `preinst` and `postinst` are the bodies of its maintainer scripts. */
export function buildDeb(
  dir: string,
  p: { name: string; version: string; architecture?: string; preinst?: string; postinst?: string; marker?: string },
): string {
  const root = path.join(dir, `${p.name}-${p.version}-src`);
  mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
  mkdirSync(path.join(root, 'usr/share', p.name), { recursive: true });
  writeFileSync(path.join(root, 'usr/share', p.name, 'version'), `${p.marker ?? p.version}\n`);
  writeFileSync(
    path.join(root, 'DEBIAN/control'),
    `Package: ${p.name}\nVersion: ${p.version}\nArchitecture: ${p.architecture ?? 'all'}\nMaintainer: Cellar tests <tests@localhost>\nDescription: stand-in for the box's package\n`,
  );
  for (const script of ['preinst', 'postinst'] as const)
    if (p[script] !== undefined) writeFileSync(path.join(root, 'DEBIAN', script), `#!/bin/sh\n${p[script]}\n`, { mode: 0o755 });
  const file = path.join(dir, `${p.name}_${p.version}_${p.architecture ?? 'all'}.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', root, file], { stdio: 'ignore' });
  return file;
}

export function indexFor(version: string, debs: { file: string; architecture: string }[]): UpdateIndex {
  return {
    format: 1,
    version,
    commit: 'abcdef0',
    published: '2026-11-25T00:00:00.000Z',
    notes: `Version ${version}`,
    packages: debs.map((d) => {
      const data = readFileSync(d.file);
      return { architecture: d.architecture, file: path.basename(d.file), sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
    }),
  };
}

/**
 * Writes index.json (with its signature unless `sign` is false) and the packages into `dir`:
 * a channel folder, or the content of a bundle.
 */
export function writeRelease(dir: string, signer: TestSigner | null, index: UpdateIndex, debs: string[]): void {
  mkdirSync(dir, { recursive: true });
  const data = Buffer.from(JSON.stringify(index, null, 2));
  writeFileSync(path.join(dir, 'index.json'), data);
  if (signer) writeFileSync(path.join(dir, 'index.json.sig'), signer.sign(data));
  for (const deb of debs) writeFileSync(path.join(dir, path.basename(deb)), readFileSync(deb));
}

/** The bundle of a release folder: a plain tar of its files. */
export function bundleOf(dir: string, into: string, names?: string[]): Buffer {
  const files = names ?? execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
  createTar({ sync: true, file: into, cwd: dir, portable: true }, files);
  return readFileSync(into);
}

/** Serves a folder over HTTP on loopback: the channels of a test. */
export async function serveFolder(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
