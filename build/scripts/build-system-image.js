// Builds the system image the installation medium carries: a Debian root as a tar file, made by
// mmdebstrap from Debian's packages plus the Cellar package of `npm run package`. The installer
// (daemon/src/areas/installer) writes it onto the target disk. Needs root and Debian's mirror:
//   node build/scripts/build-system-image.js <out.tar> [path/to/cellar.deb]
// Tests and the benchmark build a small essential image with `{ variant: 'essential' }`.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** What a bootable box needs besides the essential set: kernel, init, boot loader files, network, time, ZFS. */
export const boxPackages = [
  'linux-image-amd64',
  'systemd-sysv',
  'udev',
  'kmod',
  'initramfs-tools',
  'grub-efi-amd64-bin',
  'grub-pc-bin',
  // grub-install, which the installer runs from the medium for the BIOS loader.
  'grub2-common',
  'dosfstools',
  'e2fsprogs',
  'iproute2',
  'openssh-server',
  'chrony',
  'ca-certificates',
];

/**
 * mmdebstrap's options that keep downloaded packages in `cacheDir` between runs (its manual's own
 * recipe): the cache goes into the chroot's apt archive before the download and back out after it.
 */
export function aptCacheOptions(cacheDir) {
  mkdirSync(cacheDir, { recursive: true });
  return [
    '--skip=download/empty',
    '--skip=essential/unlink',
    '--setup-hook=mkdir -p "$1"/var/cache/apt/archives/',
    `--setup-hook=sync-in ${cacheDir} /var/cache/apt/archives/`,
    `--customize-hook=sync-out /var/cache/apt/archives ${cacheDir}`,
    // The image itself carries no package files.
    '--customize-hook=rm -f "$1"/var/cache/apt/archives/*.deb',
  ];
}

/**
 * Runs mmdebstrap with `args` and its output captured: quiet when it works, and on failure the
 * error carries mmdebstrap's own output (its E: lines say why), which is also printed.
 */
export function runMmdebstrap(args, { timeoutMs = 30 * 60 * 1000 } = {}) {
  const r = spawnSync('mmdebstrap', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
  if (r.status === 0) return;
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd();
  process.stderr.write(`${output}\n`);
  const why = r.error ? r.error.message : r.signal ? `signal ${r.signal}` : `exit status ${r.status}`;
  // The tail holds the reason; the whole output went to stderr above.
  throw new Error(`mmdebstrap failed (${why}):\n${output.split('\n').slice(-40).join('\n')}`);
}

/**
 * Runs mmdebstrap into `out` (a .tar file, or a folder). `variant: 'essential'` with no packages
 * gives the small image of the tests; the default is the box's image with `boxPackages` and the .deb.
 * `cacheDir` keeps Debian's packages between runs; `hooks` are further mmdebstrap options.
 */
export function buildSystemImage({ out, suite = 'bookworm', variant = 'important', packages = boxPackages, deb = null, cacheDir = null, hooks = [] }) {
  mkdirSync(path.dirname(out), { recursive: true });
  const include = [...packages, ...(deb ? [path.resolve(deb)] : [])];
  const args = [
    `--variant=${variant}`,
    ...(include.length > 0 ? [`--include=${include.join(',')}`] : []),
    // A local .deb is installed by apt inside the chroot, which must see the file at the same path:
    // this hook of mmdebstrap's mounts its folder there (without it dpkg cannot stat it, exit 25).
    ...(deb ? ['--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount'] : []),
    ...(cacheDir ? aptCacheOptions(cacheDir) : []),
    ...hooks,
    suite,
    out,
  ];
  runMmdebstrap(args);
  return out;
}

if (process.argv[1] === import.meta.filename) {
  const [out, deb] = process.argv.slice(2);
  if (!out) {
    process.stderr.write('usage: node build/scripts/build-system-image.js <out.tar> [cellar.deb]\n');
    process.exit(2);
  }
  try {
    buildSystemImage({ out, deb: deb ?? null });
  } catch (err) {
    process.stderr.write(`Building the system image failed: ${err.message.split('\n')[0]}\n`);
    process.exit(1);
  }
}
