// Builds the system image the installation medium carries: a Debian root as a tar file, made by
// mmdebstrap from Debian's packages plus the Cellar package of `npm run package`. The installer
// (daemon/src/areas/installer) writes it onto the target disk. Needs root and Debian's mirror:
//   node build/scripts/build-system-image.js <out.tar> [path/to/cellar.deb]
// Tests and the benchmark build a small essential image with `{ variant: 'essential' }`.
import { execFileSync } from 'node:child_process';
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
 * Runs mmdebstrap into `out` (a .tar file). `variant: 'essential'` with no packages gives the
 * small image of the tests; the default is the box's image with `boxPackages` and the .deb.
 */
export function buildSystemImage({ out, suite = 'bookworm', variant = 'important', packages = boxPackages, deb = null }) {
  mkdirSync(path.dirname(out), { recursive: true });
  const include = [...packages, ...(deb ? [path.resolve(deb)] : [])];
  const args = ['--quiet', `--variant=${variant}`, ...(include.length > 0 ? [`--include=${include.join(',')}`] : []), suite, out];
  execFileSync('mmdebstrap', args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 30 * 60 * 1000 });
  return out;
}

if (process.argv[1] === import.meta.filename) {
  const [out, deb] = process.argv.slice(2);
  if (!out) {
    process.stderr.write('usage: node build/scripts/build-system-image.js <out.tar> [cellar.deb]\n');
    process.exit(2);
  }
  buildSystemImage({ out, deb: deb ?? null });
}
