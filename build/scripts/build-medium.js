// `npm run medium`: builds dist/cellar-installer-<version>-amd64.iso, the installation medium.
//
// A hybrid image (USB stick and CD, BIOS and UEFI) holding a small Debian live system: an
// mmdebstrap root with Debian's kernel and live-boot's initramfs, packed as squashfs. It starts the
// daemon from the package in installer mode under systemd, shows what the owner needs on tty1, and
// carries the system image the install writes (build-system-image.js).
//
// Made with mmdebstrap + grub-mkrescue rather than live-build: the root is built the same way as
// the system image and the package test (one tool, one apt cache, runs unprivileged-friendly hooks
// and needs no config tree of its own), and grub-mkrescue gives the BIOS+UEFI hybrid with one GRUB
// configuration, the same boot loader the installed box uses. Needs root and Debian's mirror,
// plus squashfs-tools, xorriso, mtools, grub-pc-bin and grub-efi-amd64-bin.
//   node build/scripts/build-medium.js [--deb path/to/cellar.deb] [--out file.iso]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSystemImage } from './build-system-image.js';
import { packageDeb } from './package-deb.js';

const repo = path.resolve(import.meta.dirname, '../..');
/** Debian's packages are kept here between builds (mmdebstrap's apt cache recipe). */
export const mediumCache = '/var/cache/cellar-tests/medium';

/** The live system's own packages; the Cellar package brings the daemon's host tools. */
export const livePackages = [
  'linux-image-amd64',
  'live-boot',
  'systemd-sysv',
  'udev',
  'kmod',
  'initramfs-tools',
  // What the installer runs (daemon/src/host/installer/install-plan.ts).
  'gdisk',
  'dosfstools',
  'mtools',
  'e2fsprogs',
  'grub-efi-amd64-bin',
  'grub-pc-bin',
  'grub2-common',
  // The network test (ping) and the screen's address list before the daemon wrote its screen.
  'iputils-ping',
  'iproute2',
];

/** The kernel command line of the medium: live-boot finds /live/filesystem.squashfs on any disk; the serial port gets the log too. */
const cmdline = 'boot=live components quiet console=ttyS0,115200 console=tty1';

const run = (file, args) => execFileSync(file, args, { stdio: ['ignore', 'ignore', 'inherit'] });

function grubConfig(version) {
  return [
    'set timeout=3',
    'set default=0',
    `menuentry 'Cellar installer ${version}' {`,
    `  linux /live/vmlinuz ${cmdline}`,
    '  initrd /live/initrd.img',
    '}',
    '',
  ].join('\n');
}

/** Builds the medium from `deb` (built by `npm run package` when not given); answers the ISO's path. */
export async function buildMedium({ deb = null, out = null, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { version } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  const iso = out ?? path.join(repo, 'dist', `cellar-installer-${version}-amd64.iso`);
  const started = Date.now();
  const step = (what) => log(`medium: ${what} (${Math.round((Date.now() - started) / 1000)} s)`);
  if (!deb) {
    step('building the package');
    deb = await packageDeb();
  }
  const apt = path.join(mediumCache, 'apt');
  mkdirSync(path.join(mediumCache, 'work'), { recursive: true });
  const work = mkdtempSync(path.join(mediumCache, 'work', 'build-'));
  try {
    step('building the system image');
    const image = buildSystemImage({ out: path.join(work, 'system-image.tar'), deb, cacheDir: apt });

    step('building the live system');
    const root = path.join(work, 'root');
    buildSystemImage({
      out: root,
      variant: 'essential',
      packages: livePackages,
      deb,
      cacheDir: apt,
      hooks: [
        // The medium's own files (units, networkd file, screen), then the image the install writes.
        `--customize-hook=sync-in ${path.join(repo, 'build/medium/root')} /`,
        `--customize-hook=copy-in ${image} /usr/lib/cellar-installer`,
        '--customize-hook=chroot "$1" systemctl enable systemd-networkd.service cellar-installer-screen@tty1.service cellar-installer-screen@ttyS0.service',
        // The screen takes the login prompts' place: nobody logs in on the medium.
        '--customize-hook=chroot "$1" systemctl mask getty@tty1.service serial-getty@ttyS0.service',
        '--customize-hook=echo cellar-installer > "$1"/etc/hostname',
      ],
    });

    step('packing the live system (squashfs)');
    const tree = path.join(work, 'iso');
    mkdirSync(path.join(tree, 'live'), { recursive: true });
    mkdirSync(path.join(tree, 'boot/grub'), { recursive: true });
    const boot = readdirSync(path.join(root, 'boot'));
    const kernel = boot.find((f) => f.startsWith('vmlinuz-'));
    const initrd = boot.find((f) => f.startsWith('initrd.img-'));
    if (!kernel || !initrd) throw new Error(`the live system has no kernel or initramfs in /boot (${boot.join(', ')})`);
    cpSync(path.join(root, 'boot', kernel), path.join(tree, 'live/vmlinuz'));
    cpSync(path.join(root, 'boot', initrd), path.join(tree, 'live/initrd.img'));
    run('mksquashfs', [root, path.join(tree, 'live/filesystem.squashfs'), '-comp', 'zstd', '-Xcompression-level', '6', '-noappend', '-quiet', '-e', 'boot']);
    rmSync(root, { recursive: true, force: true });
    execFileSync('sh', ['-c', 'cat > "$0"', path.join(tree, 'boot/grub/grub.cfg')], { input: grubConfig(version) });

    step('writing the hybrid image (grub-mkrescue)');
    mkdirSync(path.dirname(iso), { recursive: true });
    const partial = `${iso}.partial`;
    run('grub-mkrescue', ['-o', partial, tree, '--', '-volid', 'CELLAR_INSTALLER']);
    renameSync(partial, iso);
    step(`done: ${iso}`);
    return iso;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { deb: { type: 'string' }, out: { type: 'string' } } });
  if (values.deb && !existsSync(values.deb)) {
    process.stderr.write(`no such package file: ${values.deb}\n`);
    process.exit(2);
  }
  const iso = await buildMedium({ deb: values.deb ?? null, out: values.out ?? null }).catch((err) => {
    process.stderr.write(`Building the medium failed: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`${iso}\n`);
}
