import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readBackup, writeBackup } from '../../shared/src/backup/backup-file.ts';
import { createAuthority } from '../../daemon/src/areas/tls/authority.ts';
import { TlsStore, type TlsSnapshot } from '../../daemon/src/areas/tls/tls-store.ts';
import { forgeries, legacyAuthority, privateKeysIn, writeLegacyAuthority } from '../helpers/certificates.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { opensslVerify } from '../helpers/openssl.ts';

const backupPassword = 'a long backup passphrase';
const outsideName = 'www.google.com';

const storeOf = (box: TestDaemon) => new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret'));

/** Every private key in the files of the TLS folder, decrypted with the data directory's own secret (which an attacker with the folder has too). */
function keysInStoreFiles(dataDir: string): string[] {
  const passphrase = readFileSync(path.join(dataDir, 'tls-secret'), 'utf8').trim();
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full) : [full];
    });
  return files(path.join(dataDir, 'tls'))
    .flatMap((file) => privateKeysIn(JSON.parse(readFileSync(file, 'utf8'))))
    .map((pem) => createPrivateKey({ key: pem, passphrase }).export({ type: 'pkcs8', format: 'pem' }).toString());
}

async function download(admin: TestClient): Promise<Buffer> {
  return Buffer.from(await (await admin.api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
}

/** The forgeries for `name` with each key that verify against the root for that name (none is the goal). */
async function acceptedForgeries(keys: string[], authority: { rootPem: string; intermediatePem: string }, name = outsideName): Promise<string[]> {
  const accepted: string[] = [];
  for (const [index, key] of keys.entries())
    for (const attempt of await forgeries(name, key, authority)) {
      const result = opensslVerify({ root: authority.rootPem, intermediates: attempt.chain, leaf: attempt.leaf, hostname: name });
      if (result.ok) accepted.push(`key ${index}: ${attempt.label}`);
    }
  return accepted;
}

describe("tls authority: no key the box holds or exports vouches beyond the box's scope", function () {
  this.timeout(180_000);
  let box: TestDaemon;
  let admin: TestClient;
  const dirs: string[] = [];

  before(async () => {
    box = await startTestDaemon({}, { restart: () => undefined });
    admin = await box.signIn();
    await admin.api.tls.settings();
  });
  after(async () => {
    await box?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('the attack works against an authority of the old kind: its root key makes www.google.com verify (the check below is not vacuous)', async () => {
    const legacy = await legacyAuthority({ hostname: 'cellar', localDomain: 'local' });
    expect(await acceptedForgeries([legacy.rootKeyPem], legacy)).to.include('key 0: new intermediate under the root');
  });

  it("makes no certificate for www.google.com with any key of the store's files or of a backup's tls part; the box's names still verify", async () => {
    const snapshot = storeOf(box).snapshot();
    const authority = snapshot.authority!;
    const backup = await readBackup(await download(admin), backupPassword);
    const keys = [...new Set([...keysInStoreFiles(box.dataDir), ...privateKeysIn(backup.parts.tls)])];
    expect(await acceptedForgeries(keys, authority)).to.deep.equal([]);
    // The intermediate's key and the box certificate's key: nothing else, and never the root's.
    expect(keys).to.have.length(2);
    expect(JSON.stringify(backup.parts.tls)).to.not.include('rootKeyPem');
    expect(readFileSync(path.join(box.dataDir, 'tls', 'authority.json'), 'utf8')).to.not.include('rootKeyPem');

    // The root carries the scope as critical name constraints, as the intermediate does.
    const rootFile = path.join(mkdtempSync(path.join(tmpdir(), 'cellar-root-')), 'root.pem');
    dirs.push(path.dirname(rootFile));
    writeFileSync(rootFile, authority.rootPem);
    const text = spawnSync('openssl', ['x509', '-noout', '-ext', 'nameConstraints', '-in', rootFile], { encoding: 'utf8' }).stdout;
    expect(text).to.match(/Name Constraints: critical/);
    expect(text).to.include('DNS:local').and.include('DNS:localhost').and.include('IP:192.168.0.0/255.255.0.0');

    // What the box and its devices are meant to be: still accepted.
    const boxVerify = opensslVerify({
      root: authority.rootPem,
      intermediates: authority.intermediatePem,
      leaf: snapshot.box!.certificatePem,
      hostname: 'localhost',
    });
    expect(boxVerify.ok, boxVerify.output).to.equal(true);
    const printer = await admin.api.tls.issue({ body: { names: ['printer.local', '192.168.1.40'] } });
    for (const check of [{ hostname: 'printer.local' }, { ip: '192.168.1.40' }]) {
      const result = opensslVerify({ root: authority.rootPem, intermediates: printer.chain, leaf: printer.certificate, ...check });
      expect(result.ok, result.output).to.equal(true);
    }
    // The intermediate's key makes certificates only inside the scope.
    expect(await acceptedForgeries([authority.intermediateKeyPem], authority, 'nas.local')).to.include('key 0: leaf under the intermediate');
  });

  it('replaces an authority of the old kind at start, drops its root key, keeps it replaced and tells administrators to trust again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-tls-legacy-'));
    dirs.push(dataDir);
    const legacy = await legacyAuthority({ hostname: 'cellar', localDomain: 'home.arpa' });
    writeLegacyAuthority(dataDir, legacy);
    const oldFingerprint = new X509Certificate(legacy.rootPem).fingerprint256;
    let old = await startTestDaemon({ dataDir });
    try {
      const oldAdmin = await old.signIn();
      // Told at start, before anybody asked for the certificates.
      const notices = (await oldAdmin.api.notifications.list()).items.filter((n) => n.code === 'tls.authority.replaced');
      expect(notices).to.have.length(1);
      expect(notices[0]).to.deep.include({ level: 'warning', params: { fingerprint: oldFingerprint } });
      const settings = await oldAdmin.api.tls.settings();
      expect(settings.authority.root.sha256Fingerprint).to.not.equal(oldFingerprint);
      expect(settings.authority.replaced).to.deep.include({ previousRootFingerprint: oldFingerprint });
      // Never widened: the local domain is kept, and the new root carries the scope.
      expect(settings.authority.localDomain).to.equal('home.arpa');
      expect(readFileSync(path.join(dataDir, 'tls', 'authority.json'), 'utf8')).to.not.include('rootKeyPem');
      expect(keysInStoreFiles(dataDir).map((k) => createPrivateKey(k).export({ type: 'pkcs8', format: 'pem' }))).to.not.include(legacy.rootKeyPem);
      const authority = storeOf(old).readAuthority()!;
      expect(await acceptedForgeries(keysInStoreFiles(dataDir), authority)).to.deep.equal([]);

      // The next start keeps the new authority and tells nobody again.
      await old.close({ keepData: true });
      old = await startTestDaemon({ dataDir });
      const again = await (await old.signIn()).api.tls.settings();
      expect(again.authority.root.sha256Fingerprint).to.equal(settings.authority.root.sha256Fingerprint);
      expect(again.authority.replaced).to.deep.equal(settings.authority.replaced);
      expect((await (await old.signIn()).api.notifications.list()).items.filter((n) => n.code === 'tls.authority.replaced')).to.have.length(1);
    } finally {
      await old.close({ keepData: true });
    }
  });

  it("restores an old backup's authority without its root key, and the restart replaces it with the warning", async () => {
    const real = await readBackup(await download(admin), backupPassword);
    const tls = real.parts.tls as TlsSnapshot;
    const legacy = await legacyAuthority({ hostname: 'cellar', localDomain: 'local' });
    const file = await writeBackup({ ...real, parts: { tls: { ...tls, authority: legacy } } }, backupPassword);
    const summary = await admin.api.backup.inspect({ body: { password: backupPassword, backup: file.toString('base64') } });
    expect(summary.parts.find((p) => p.name === 'tls')?.restorable).to.equal(true);
    await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['tls'] } });
    expect(readFileSync(path.join(box.dataDir, 'tls', 'authority.json'), 'utf8')).to.not.include('rootKeyPem');

    // The restart that follows every restore.
    await box.close({ keepData: true });
    box = await startTestDaemon({ dataDir: box.dataDir }, { restart: () => undefined });
    admin = await box.signIn();
    const settings = await admin.api.tls.settings();
    const oldFingerprint = new X509Certificate(legacy.rootPem).fingerprint256;
    expect(settings.authority.root.sha256Fingerprint).to.not.equal(oldFingerprint);
    expect(settings.authority.replaced).to.deep.include({ previousRootFingerprint: oldFingerprint });
    expect(await acceptedForgeries(keysInStoreFiles(box.dataDir), storeOf(box).readAuthority()!)).to.deep.equal([]);
  });

  it("refuses a backup whose root is constrained to other names than the authority's scope", async () => {
    const real = await readBackup(await download(admin), backupPassword);
    const tls = real.parts.tls as TlsSnapshot;
    const other = await createAuthority({ now: Date.now(), hostname: 'cellar', localDomain: 'lan' });
    const file = await writeBackup({ ...real, parts: { tls: { ...tls, authority: { ...tls.authority!, rootPem: other.rootPem } } } }, backupPassword);
    const err = await expectProblem(
      admin.api.backup.inspect({ body: { password: backupPassword, backup: file.toString('base64') } }),
      'backup.part.invalid',
      400,
    );
    expect(err.problem.detail).to.include("root's name constraints");
  });
});
