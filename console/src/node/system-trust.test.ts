import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAuthority } from '../../../daemon/src/areas/tls/authority.ts';
import { legacyAuthority } from '../../../test/helpers/certificates.ts';
import { BoxStore } from './box-store.ts';
import { ConsoleError } from './console-error.ts';
import { ConsoleService } from './console-service.ts';
import { Discovery } from './discovery.ts';
import { applyRoot, findTool, localRootsDir, planInstall, planRemove, rootEntry, toolFolders, type TrustHost } from './system-trust.ts';

/** What `certutil -L` lists of the database: nickname and trust attributes per line. */
function listNss(home: string): string {
  return execFileSync('certutil', ['-L', '-d', `sql:${path.join(home, '.pki', 'nssdb')}`], { encoding: 'utf8' });
}

describe('console system trust: the root into the system stores with their own tools', function () {
  this.timeout(60_000);
  let dir: string;
  let home: string;
  let rootPem: string;
  let host: TrustHost;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-system-trust-'));
    home = path.join(dir, 'home');
    rootPem = (await createAuthority({ now: Date.now(), hostname: 'attic', localDomain: 'home.arpa' })).rootPem;
    // An ordinary user without pkexec: the NSS database is theirs, the system store is not.
    host = { platform: 'linux', home, isRoot: false, hasPkexec: false };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("installs into a new user's NSS database for real, idempotently, and removes it again", async () => {
    const nickname = rootEntry(rootPem, 'attic', 'unused').nickname;
    expect(existsSync(path.join(home, '.pki', 'nssdb'))).to.equal(false);

    const first = await applyRoot(planInstall, rootPem, 'attic', host);
    expect(first).to.deep.equal([
      { store: 'nss', state: 'done', tool: null, package: null, detail: null },
      { store: 'system', state: 'missing', tool: 'pkexec', package: 'pkexec', detail: null },
    ]);
    const listed = listNss(home)
      .split('\n')
      .filter((line) => line.startsWith(nickname));
    expect(listed).to.have.length(1);
    expect(listed[0]).to.match(/\sC,,\s*$/);
    // The database holds the very certificate: same fingerprint as the pinned root.
    const stored = execFileSync('certutil', ['-L', '-d', `sql:${path.join(home, '.pki', 'nssdb')}`, '-n', nickname, '-a'], { encoding: 'utf8' });
    expect(new X509Certificate(stored).fingerprint256).to.equal(new X509Certificate(rootPem).fingerprint256);

    // Again: the database exists now, so it is not created twice, and the root stays one entry.
    expect(planInstall(host, rootEntry(rootPem, 'attic', '/r.crt'))[0]!.commands.map((c) => c[3])).to.deep.equal(['-A']);
    expect((await applyRoot(planInstall, rootPem, 'attic', host))[0]!.state).to.equal('done');
    expect(
      listNss(home)
        .split('\n')
        .filter((line) => line.startsWith(nickname)),
    ).to.have.length(1);

    expect((await applyRoot(planRemove, rootPem, 'attic', host))[0]).to.deep.include({ store: 'nss', state: 'done' });
    expect(listNss(home)).not.to.include(nickname);
    // Removing what is not there fails with certutil's own words, never silently.
    const again = (await applyRoot(planRemove, rootPem, 'attic', host))[0]!;
    expect(again).to.deep.include({ store: 'nss', state: 'failed', tool: 'certutil' });
    expect(again.detail).to.be.a('string').and.not.equal('');
  });

  it('answers a missing certutil as a state naming the package, never a crash', async () => {
    const path0 = process.env.PATH;
    process.env.PATH = path.join(dir, 'no-tools-here');
    try {
      const [nss] = await applyRoot(planInstall, rootPem, 'attic', { ...host, home: path.join(dir, 'other-home') });
      expect(nss).to.deep.equal({ store: 'nss', state: 'missing', tool: 'certutil', package: 'libnss3-tools', detail: null });
    } finally {
      process.env.PATH = path0;
    }
  });

  it('finds pkexec and the trust tool on PATH before running anything: a missing one names its package, and only 126 is declined', async () => {
    const root = path.join(dir, 'tools');
    /** A folder for PATH with links to the real tools named, and a pkexec that only records its arguments and exits with `code`. */
    const folder = (name: string, tools: string[], pkexecCode: number | null) => {
      const bin = path.join(root, name);
      mkdirSync(bin, { recursive: true });
      for (const tool of tools) symlinkSync(findTool(tool, toolFolders('/usr/bin:/bin'))!, path.join(bin, tool));
      if (pkexecCode !== null)
        writeFileSync(path.join(bin, 'pkexec'), `#!/bin/sh\necho "$@" >> "$0.calls"\necho "pkexec says no" >&2\nexit ${pkexecCode}\n`, { mode: 0o755 });
      return bin;
    };
    const system = async (bin: string) => {
      const path0 = process.env.PATH;
      process.env.PATH = bin;
      try {
        return (await applyRoot(planInstall, rootPem, 'attic', { ...host, hasPkexec: true, toolPath: [bin] }))[1]!;
      } finally {
        process.env.PATH = path0;
      }
    };
    // pkexec is there, update-ca-certificates is not: pkexec would exit 127, which said "declined" before.
    const noTool = folder('no-tool', ['certutil', 'install'], 127);
    expect(await system(noTool)).to.deep.equal({ store: 'system', state: 'missing', tool: 'update-ca-certificates', package: 'ca-certificates', detail: null });
    expect(existsSync(path.join(noTool, 'pkexec.calls')), 'pkexec never ran').to.equal(false);
    const noPkexec = folder('no-pkexec', ['certutil', 'install', 'update-ca-certificates'], null);
    expect(await system(noPkexec)).to.deep.equal({ store: 'system', state: 'missing', tool: 'pkexec', package: 'pkexec', detail: null });
    // Everything there: a dismissed prompt (126) is declined, a refusal (127) failed with pkexec's words; pkexec gets full paths.
    const dismissed = folder('dismissed', ['certutil', 'install', 'update-ca-certificates'], 126);
    expect(await system(dismissed)).to.deep.equal({ store: 'system', state: 'declined', tool: 'pkexec', package: null, detail: 'pkexec says no' });
    expect(readFileSync(path.join(dismissed, 'pkexec.calls'), 'utf8')).to.match(new RegExp(`^${path.join(dismissed, 'install')} -m 0644 `));
    const refused = folder('refused', ['certutil', 'install', 'update-ca-certificates'], 127);
    expect(await system(refused)).to.deep.equal({ store: 'system', state: 'failed', tool: 'install', package: null, detail: 'pkexec says no' });
    // A desktop user's PATH without the sbin folders still finds update-ca-certificates there.
    expect(findTool('update-ca-certificates', toolFolders('/usr/bin:/bin'))).to.equal('/usr/sbin/update-ca-certificates');
    expect(findTool('update-ca-certificates', toolFolders('relative/bin'))).to.equal('/usr/sbin/update-ca-certificates');
  });

  it('plans the system store, the macOS keychain and the Windows user store as argument arrays', () => {
    const root = rootEntry(rootPem, 'at/tic;$()', '/tmp/r/root.crt');
    expect(root.nickname).to.match(/^Cellar attic root [0-9a-f]{16}$/);
    expect(root.fileName).to.match(/^cellar-[0-9a-f]{16}\.crt$/);
    const local = path.join(localRootsDir, root.fileName);
    const system = (h: Partial<TrustHost>) => planInstall({ ...host, ...h }, root)[1]!;
    expect(system({ isRoot: true }).commands).to.deep.equal([['install', '-m', '0644', '/tmp/r/root.crt', local], ['update-ca-certificates']]);
    expect(system({ hasPkexec: true }).commands).to.deep.equal([
      ['pkexec', 'install', '-m', '0644', '/tmp/r/root.crt', local],
      ['pkexec', 'update-ca-certificates'],
    ]);
    expect(planRemove({ ...host, isRoot: true }, root)[1]!.commands).to.deep.equal([['rm', '-f', local], ['update-ca-certificates']]);

    const mac = { platform: 'darwin', home: '/Users/ann', isRoot: false, hasPkexec: false } as const;
    const keychain = '/Users/ann/Library/Keychains/login.keychain-db';
    expect(planInstall(mac, root)).to.deep.equal([
      { store: 'keychain', commands: [['security', 'add-trusted-cert', '-r', 'trustRoot', '-k', keychain, '/tmp/r/root.crt']], folders: [], unavailable: null },
    ]);
    expect(planRemove(mac, root)[0]!.commands).to.deep.equal([
      ['security', 'remove-trusted-cert', '/tmp/r/root.crt'],
      ['security', 'delete-certificate', '-Z', root.sha1, keychain],
    ]);
    expect(root.sha1).to.equal(new X509Certificate(rootPem).fingerprint.replace(/:/g, ''));

    const windows = { platform: 'win32', home: 'C:\\Users\\ann', isRoot: false, hasPkexec: false } as const;
    expect(planInstall(windows, root)).to.deep.equal([
      { store: 'windows', commands: [['certutil', '-user', '-addstore', 'Root', '/tmp/r/root.crt']], folders: [], unavailable: null },
    ]);
    expect(planRemove(windows, root)[0]!.commands).to.deep.equal([['certutil', '-user', '-delstore', 'Root', root.sha1]]);
    expect(planInstall({ ...host, platform: 'freebsd' }, root)).to.deep.equal([]);
  });

  it('goes through the console service only for a pinned root without a warning', async () => {
    const store = new BoxStore(path.join(dir, 'boxes.json'));
    const service = new ConsoleService({
      store,
      discovery: new Discovery({ browser: { start: () => () => {} }, known: () => store.list() }),
      trustHost: { ...host, home: path.join(dir, 'service-home') },
    });
    const box = store.add({ url: 'https://attic.home.arpa' });
    const refused = await service.trustOnSystem(box.id).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ConsoleError).with.property('code', 'console.box.untrusted');
    // A root without name constraints goes into no store: it could vouch for any site.
    const legacy = (await legacyAuthority({ hostname: 'attic', localDomain: 'home.arpa' })).rootPem;
    store.pin(box.id, { pem: legacy, sha256: new X509Certificate(legacy).fingerprint256 });
    const unconstrained = await service.trustOnSystem(box.id).catch((e: unknown) => e);
    expect(unconstrained).to.be.instanceOf(ConsoleError).with.property('code', 'console.root.unconstrained');
    expect(existsSync(path.join(dir, 'service-home', '.pki'))).to.equal(false);
    store.pin(box.id, { pem: rootPem, sha256: new X509Certificate(rootPem).fingerprint256 });
    expect((await service.trustOnSystem(box.id))[0]).to.deep.include({ store: 'nss', state: 'done' });
    expect(listNss(path.join(dir, 'service-home'))).to.include(rootEntry(rootPem, box.name, 'unused').nickname);
  });

  it('removes trust through the same plans: the stores the console wrote to, the pin; forgetting asks whether to', async () => {
    const store = new BoxStore(path.join(dir, 'remove.json'));
    const serviceHome = path.join(dir, 'remove-home');
    const service = new ConsoleService({
      store,
      discovery: new Discovery({ browser: { start: () => () => {} }, known: () => store.list() }),
      trustHost: { ...host, home: serviceHome },
    });
    const nickname = (name: string) => rootEntry(rootPem, name, 'unused').nickname;
    const trusted = async (url: string) => {
      const box = store.add({ url });
      store.pin(box.id, { pem: rootPem, sha256: new X509Certificate(rootPem).fingerprint256 });
      await service.trustOnSystem(box.id);
      return store.get(box.id);
    };
    const attic = await trusted('https://attic.home.arpa');
    // Only the store that took the root is recorded (no pkexec here: the system store did not).
    expect(service.listBoxes().find((b) => b.id === attic.id)!.systemTrust).to.deep.equal(['nss']);
    expect(listNss(serviceHome)).to.include(nickname(attic.name));
    const removed = await service.removeTrust(attic.id);
    expect(removed).to.deep.equal([{ store: 'nss', state: 'done', tool: null, package: null, detail: null }]);
    expect(listNss(serviceHome)).to.not.include(nickname(attic.name));
    expect(service.listBoxes().find((b) => b.id === attic.id)).to.deep.include({ pinned: null, systemTrust: [], known: true });
    expect(await service.removeTrust(attic.id)).to.deep.equal([]);

    // Forgetting without removing keeps the system's entry; with it, the entry goes too.
    const cellar = await trusted('https://cellar.home.arpa');
    expect(await service.forgetBox(cellar.id, false)).to.deep.equal([]);
    expect(listNss(serviceHome)).to.include(nickname(cellar.name));
    const again = await trusted('https://cellar.home.arpa');
    expect((await service.forgetBox(again.id, true)).map((r) => r.state)).to.deep.equal(['done']);
    expect(listNss(serviceHome)).to.not.include(nickname(again.name));
    expect(service.listBoxes().map((b) => b.url)).to.deep.equal(['https://attic.home.arpa:7484']);

    // A reinstalled box: its new root, trusted on this computer, replaces the old one there.
    const reinstalled = await trusted('https://cellar.home.arpa');
    const newRoot = (await createAuthority({ now: Date.now(), hostname: 'cellar', localDomain: 'home.arpa' })).rootPem;
    store.pin(reinstalled.id, { pem: newRoot, sha256: new X509Certificate(newRoot).fingerprint256 });
    expect((await service.trustOnSystem(reinstalled.id)).map((r) => r.state)).to.deep.equal(['done', 'missing']);
    const listed = listNss(serviceHome);
    expect(listed).to.include(rootEntry(newRoot, reinstalled.name, 'unused').nickname);
    expect(listed).to.not.include(nickname(reinstalled.name));
    expect(store.get(reinstalled.id).systemTrust).to.deep.include({ pem: newRoot, stores: ['nss'] });
  });
});
