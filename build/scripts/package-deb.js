// `npm run package`: builds dist/cellar_<version>_<arch>.deb, the box's Debian package.
//
// It carries the bundled daemon, the built web desktop, the production dependencies only and the
// Node.js that built them. Node is bundled rather than taken from Debian because the native
// modules shipped (sqlite3, sharp) are the ones npm installed for this Node, and Debian 12's
// nodejs (18) is older than the engines field allows; a box update brings a newer Node with the
// rest. Debian's packages provide the host tools the daemon drives.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleDaemon } from './bundle-daemon.js';

const repo = path.resolve(import.meta.dirname, '../..');
const debian = path.join(repo, 'build/debian');
const installDir = 'usr/lib/cellar';

/** The Debian packages the box needs; `a | b` takes either. */
export const depends = [
  'acl',
  'chrony',
  'debconf (>= 0.5) | debconf-2.0',
  // deb-systemd-helper, which the maintainer scripts enable the unit with.
  'init-system-helpers (>= 1.54~)',
  'iproute2',
  'nftables',
  'nginx',
  'openssh-server',
  'passwd',
  'samba',
  'samba-common-bin',
  'smartmontools',
  'util-linux',
  'zfsutils-linux | zfs-fuse',
];

function run(file, args, options = {}) {
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options }).trim();
}

/** Top-level folders of node_modules that production code needs (npm's own view, nested ones included in their parent). */
function productionModules() {
  // npm ls exits non-zero over problems elsewhere in the tree (extraneous or development packages) yet
  // still lists the production tree; a module it lists but that is absent fails the copy below.
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: repo, encoding: 'utf8' });
  if (!listed.stdout?.trim()) throw new Error(`npm ls listed nothing: ${listed.stderr}`);
  const lines = listed.stdout.trim().split('\n');
  const top = new Set();
  for (const line of lines) {
    const rel = path.relative(path.join(repo, 'node_modules'), line);
    if (!rel || rel.startsWith('..')) continue;
    const parts = rel.split(path.sep);
    top.add(parts[0].startsWith('@') ? path.join(parts[0], parts[1]) : parts[0]);
  }
  // Build tools listed as dependencies for `npm start` from a checkout; the package runs the bundle.
  for (const buildOnly of ['esbuild', '@esbuild/linux-x64', '@esbuild/linux-arm64', 'tsx']) top.delete(buildOnly);
  return [...top].sort();
}

function control(pkg, arch, installedKb) {
  return [
    'Package: cellar',
    `Version: ${pkg.version}`,
    `Architecture: ${arch}`,
    'Maintainer: Cellar developers <packages@cellar.invalid>',
    `Installed-Size: ${installedKb}`,
    `Depends: ${depends.join(', ')}`,
    'Section: admin',
    'Priority: optional',
    'Description: management service and web desktop of a storage box',
    ' The management service and web desktop of a home and small-office storage',
    ' box: users, shares over SMB and SFTP, ZFS storage, apps, logs and the',
    ' system settings, in a browser on port 7484.',
    '',
  ].join('\n');
}

/**
 * Builds the package and answers its path. `outDir` defaults to dist/ of the repository;
 * `version` (a Debian version) replaces package.json's, for a newer build of the same code (the
 * virtual-machine test's update).
 */
export async function packageDeb({ outDir = path.join(repo, 'dist'), version } = {}) {
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  if (version) pkg.version = version;
  const arch = run('dpkg', ['--print-architecture']);
  execFileSync(process.execPath, [path.join(repo, 'build/scripts/ensure-web.js')], { stdio: 'inherit' });
  await bundleDaemon();

  const stage = mkdtempSync(path.join(tmpdir(), 'cellar-deb-'));
  try {
    const lib = path.join(stage, installDir);
    mkdirSync(lib, { recursive: true });
    cpSync(path.join(repo, 'daemon/dist'), path.join(lib, 'daemon/dist'), { recursive: true });
    cpSync(path.join(repo, 'daemon/public'), path.join(lib, 'daemon/public'), { recursive: true });
    // Programs the daemon hands to others to run (git's GIT_SSH, app backends' listen-pid): with its code, never in the data directory.
    cpSync(path.join(repo, 'daemon/bin'), path.join(lib, 'daemon/bin'), { recursive: true });
    for (const program of ['git-ssh', 'listen-pid']) chmodSync(path.join(lib, 'daemon/bin', program), 0o755);
    for (const name of productionModules()) {
      cpSync(path.join(repo, 'node_modules', name), path.join(lib, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
    }
    let commit = null;
    try {
      commit = run('git', ['-C', repo, 'rev-parse', 'HEAD']);
    } catch {
      // A source tree without git history builds a package without a commit.
    }
    const installed = { name: pkg.name, version: pkg.version, description: pkg.description, type: pkg.type, commit };
    writeFileSync(path.join(lib, 'package.json'), JSON.stringify(installed, null, 2) + '\n');
    mkdirSync(path.join(lib, 'node/bin'), { recursive: true });
    copyFileSync(process.execPath, path.join(lib, 'node/bin/node'));
    chmodSync(path.join(lib, 'node/bin/node'), 0o755);

    mkdirSync(path.join(stage, 'lib/systemd/system'), { recursive: true });
    copyFileSync(path.join(debian, 'cellar.service'), path.join(stage, 'lib/systemd/system/cellar.service'));
    mkdirSync(path.join(stage, 'etc/cellar'), { recursive: true });
    copyFileSync(path.join(debian, 'cellar.json'), path.join(stage, 'etc/cellar/cellar.json'));

    const meta = path.join(stage, 'DEBIAN');
    mkdirSync(meta);
    for (const script of ['postinst', 'prerm', 'postrm']) {
      copyFileSync(path.join(debian, script), path.join(meta, script));
      chmodSync(path.join(meta, script), 0o755);
    }
    copyFileSync(path.join(debian, 'templates'), path.join(meta, 'templates'));
    writeFileSync(path.join(meta, 'conffiles'), '/etc/cellar/cellar.json\n');
    const installedKb = run('du', ['-sk', '--exclude=DEBIAN', stage]).split(/\s/)[0];
    writeFileSync(path.join(meta, 'control'), control(pkg, arch, installedKb));

    mkdirSync(outDir, { recursive: true });
    const out = path.join(outDir, `cellar_${pkg.version}_${arch}.deb`);
    // gzip: xz takes minutes for the Node binary and native modules on a small machine, for little gain.
    execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', stage, out], { stdio: ['ignore', 'ignore', 'inherit'] });
    return out;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const out = await packageDeb().catch((err) => {
    process.stderr.write(`Building the package failed: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`${out}\n`);
}
