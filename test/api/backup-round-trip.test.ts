import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backupPartNames, type BackupSummary } from '../../shared/src/api/backup/backup.ts';
import { readBackup } from '../../shared/src/backup/backup-file.ts';
import type { DaemonOptions } from '../../daemon/src/daemon-types.ts';
import { outsideCertificates } from '../helpers/certificates.ts';
import { adminPassword, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { totpCode } from '../helpers/identity.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';

const backupPassword = 'a long backup passphrase';

/** Reads a box's state through the API, area by area, without what belongs to the box rather than to its configuration. */
async function stateOf(c: TestClient): Promise<Record<string, unknown>> {
  const users = await c.api.users.list();
  const groups = await c.api.groups.list();
  const shares = await c.api.shares.list();
  const apps = (await c.api.apps.list()).apps;
  const tls = await c.api.tls.settings();
  return {
    users,
    groups,
    userGrants: await Promise.all(users.map((u) => c.api.permissions.userGrants({ params: { userId: u.id } }))),
    groupGrants: await Promise.all(groups.map((g) => c.api.permissions.groupGrants({ params: { groupId: g.id } }))),
    // Free space is the disk's, not the configuration's.
    shares: shares.map(({ availableBytes: _free, ...share }) => share),
    shareGrants: await Promise.all(shares.map((s) => c.api.shares.grants({ params: { shareId: s.id } }))),
    storageSchedules: await c.api.storage.schedules(),
    homes: await c.api.homes.overview().then((h) => ({ homePool: h.homePool, defaultQuotaBytes: h.defaultQuotaBytes, homes: h.homes })),
    region: await c.api.system.region(),
    boxName: (await c.api.system.setup()).boxName,
    tls: { authority: tls.authority, custom: tls.custom, issued: tls.issued, presented: tls.presented },
    // When the package was installed and its files are the box's own; the settings and mappings are the backup's.
    apps: apps.map(({ installedAt: _at, updatedAt: _up, ...app }) => app),
    appGrants: await Promise.all(apps.map((a) => c.api.apps.grants({ params: { appId: a.id } }))),
    proxy: await c.api.proxy.settings(),
    // Fetch state and the deploy key are the box's own; the delay of the daily check too.
    store: await c.api.store.state().then((st) => ({
      settings: { policy: st.settings.policy, dailyTime: st.settings.dailyTime, channel: st.settings.channel },
      catalogs: st.catalogs.map((k) => ({ id: k.id, name: k.name, url: k.url, builtIn: k.builtIn, enabled: k.enabled, readToken: k.readToken })),
    })),
    network: (await c.api.systemNetwork.network()).configured,
  };
}

/**
 * A part's content as two boxes with the same configuration hold it. The box's own server
 * certificate is the one thing a box makes itself: it may be issued again at start (by the
 * restored authority, for the same names), so it counts by its names and issuer.
 */
function comparable(part: string, content: unknown): unknown {
  if (part !== 'tls') return content;
  const tls = content as { box: { certificatePem: string; privateKeyPem: string } | null; authority: { intermediatePem: string } | null };
  if (!tls.box || !tls.authority) return content;
  const cert = new X509Certificate(tls.box.certificatePem);
  const names = (cert.subjectAltName ?? '').split(', ').sort();
  return { ...tls, box: { names, issuedByAuthority: cert.checkIssued(new X509Certificate(tls.authority.intermediatePem)) } };
}

/**
 * Issue 35: every backup a box makes inspects and restores on a fresh box. Box A has every area
 * filled; a fresh box B inspects and restores every part the daemon knows (the list comes from the
 * daemon, so a new part falls in here and must be filled), rebuilds itself, and then reads the same
 * through the API as A, and writes a backup with the same content.
 */
describe('configuration backup: the round trip of a filled box onto a fresh one', function () {
  this.timeout(180_000);
  const folders: string[] = [];
  let a: TestDaemon;
  let b: TestDaemon;
  let adminA: TestClient;
  let file: Buffer;

  const sshDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cellar-round-trip-ssh-'));
    folders.push(dir);
    return dir;
  };
  const options = (dir: string): Omit<DaemonOptions, 'config' | 'env'> => ({ restart: () => undefined, backup: { sshDir: dir } });
  const inspect = (c: TestClient): Promise<BackupSummary> => c.api.backup.inspect({ body: { password: backupPassword, backup: file.toString('base64') } });

  before(async () => {
    const sshA = sshDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', '', '-f', path.join(sshA, 'ssh_host_ed25519_key')]);
    a = await startTestDaemon({}, options(sshA));
    adminA = await a.signIn();
    const api = adminA.api;
    // Users with a second factor and recovery codes, an administrator, groups with members, grants of both.
    const bob = await api.users.create({ body: { username: 'bob', password: 'bob password 1', smb: true, sftp: true } });
    const carol = await api.users.create({ body: { username: 'carol', password: 'carol password 1', admin: true, language: 'de' } });
    const bobClient = await a.signIn('bob', 'bob password 1');
    const { secret } = await bobClient.api.auth.totpEnroll();
    await bobClient.api.auth.totpConfirm({ body: { code: await totpCode(secret, -1) } });
    const family = await api.groups.create({ body: { name: 'family', memberIds: [bob.id, carol.id] } });
    await api.permissions.setGroupGrants({ params: { groupId: family.id }, body: { rights: ['sftp'] } });
    await api.permissions.setUserGrants({ params: { userId: carol.id }, body: { rights: ['smb'] } });
    // Shares with grants, file services and recycle bin settings.
    const { share, folder } = await makeShare(adminA, 'Photos');
    mkdirSync(path.join(folder, 'greetings'));
    await api.shares.update({
      params: { shareId: share.id },
      body: { description: 'the family photos', smbEnabled: true, smbEncrypt: true, sftpEnabled: true },
    });
    await api.shares.setTrash({ params: { shareId: share.id }, body: { retentionDays: 12 } });
    await api.shares.setGrants({
      params: { shareId: share.id },
      body: {
        grants: [
          { subjectType: 'group', subjectId: family.id, level: 'read' },
          { subjectType: 'user', subjectId: bob.id, level: 'readWrite' },
        ],
      },
    });
    await makeShare(adminA, 'Documents');
    // Storage schedules, homes settings, region and the box's name.
    await api.storage.setSchedules({ body: { smartSelfTest: { frequency: 'weekly' } } });
    await api.homes.settings({ body: { defaultQuotaBytes: 5 * 1024 ** 3 } });
    await api.system.setRegion({ body: { language: 'de', region: 'AT' } });
    await a.daemon.db.query(
      "INSERT INTO system_settings (key, value, updated_at) VALUES ('boxName', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      {
        replacements: [JSON.stringify('Cellar in the hall'), new Date().toISOString()],
      },
    );
    // The authority with an issued and an uploaded certificate.
    await api.tls.issue({ body: { names: ['printer.local'] } });
    const upload = await (await outsideCertificates()).server({ names: ['nas.local'] });
    await api.tls.setCustom({ body: { certificate: upload.chain, privateKey: upload.privateKeyPem } });
    // An installed app with a storage mapping, its own log level, update policy and a revoked permission.
    await installApp(adminA, storageApp());
    await api.apps.mapStorage({ params: { appId: example.id, storageId: 'greetings' }, body: { shareId: share.id, path: 'greetings', access: 'readWrite' } });
    await api.apps.setLogLevel({ params: { appId: example.id }, body: { level: 'debug' } });
    await api.apps.setUpdatePolicy({ params: { appId: example.id }, body: { policy: 'notify' } });
    await api.apps.setPermissions({ params: { appId: example.id }, body: { permissions: { notifications: false } } });
    // The reverse proxy: hosts with the authority's and an uploaded certificate, Basic Auth and sign-in, a redirect, a stream, options.
    const target = { scheme: 'http' as const, host: '127.0.0.1', port: 9 };
    await api.proxy.createHost({
      body: {
        domains: ['cam.local'],
        target,
        tls: { mode: 'authority' },
        forceHttps: true,
        basicAuth: [{ username: 'carol', password: 'carol secret' }],
        signIn: { enabled: true, userIds: [bob.id], groupIds: [family.id] },
      },
    });
    const media = await (await outsideCertificates()).server({ names: ['media.home.arpa'] });
    await api.proxy.createHost({
      body: { domains: ['media.home.arpa'], target, tls: { mode: 'uploaded', certificate: media.chain, privateKey: media.privateKeyPem } },
    });
    await api.proxy.createRedirect({ body: { domains: ['old.local'], destination: 'https://cam.local/', status: 308, https: true } });
    await api.proxy.createStream({ body: { port: 2222, protocols: ['tcp', 'udp'], target: { host: '127.0.0.1', port: 22 } } });
    await api.proxy.setOptions({ body: { unknownNames: 'notFound', signInUrl: 'https://nas.local:7484/' } });
    // The Store: the project catalog off (nothing here reaches beyond loopback), two custom catalogs, one with a read token, other settings.
    const project = (await api.store.state()).catalogs.find((k) => k.builtIn);
    await api.store.updateCatalog({ params: { key: project?.key ?? 0 }, body: { enabled: false } });
    const tokened = await api.store.addCatalog({ body: { url: 'http://127.0.0.1:9/family/catalog.git', name: 'Family' } });
    await api.store.updateCatalog({ params: { key: tokened.key }, body: { readToken: 'reader:secret-token' } });
    await api.store.addCatalog({ body: { url: 'ssh://git@127.0.0.1:9/owner/private.git' } });
    await api.store.settings({ body: { policy: 'automatic', dailyTime: '04:30', channel: 'beta' } });
    // The network: a host name and name server of its own, kept (a development box applies nothing to this machine).
    const network = (await api.systemNetwork.network()).configured;
    const change = await api.systemNetwork.setNetwork({ body: { ...network, hostName: 'cellar-hall', nameServers: ['192.0.2.53'] } });
    await api.systemNetwork.confirmNetwork({ params: { changeId: change.changeId } });
    file = Buffer.from(await (await api.backup.create({ body: { password: backupPassword } })).arrayBuffer());
  });
  after(async () => {
    await a?.close();
    await b?.close();
    removeTempFolders();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('inspects on the box that made it: every part the daemon knows, each holding something', async () => {
    const summary = await inspect(adminA);
    expect(summary.parts.map((p) => p.name)).to.deep.equal([...backupPartNames]);
    for (const part of summary.parts) {
      expect(part.restorable, part.name).to.equal(true);
      expect(part.skipped, part.name).to.equal(undefined);
      // A part with nothing in it proves nothing here: a new part needs its area filled above.
      expect(
        Object.values(part.counts).some((n) => n > 0),
        `${part.name} holds something`,
      ).to.equal(true);
    }
  });

  it('restores every part onto a fresh box, which then reads as the first through the API and writes the same backup', async () => {
    const sshB = sshDir();
    b = await startTestDaemon({}, options(sshB));
    let adminB = await b.signIn();
    // The app is installed on B as an owner would before restoring: the backup carries its settings, not its package.
    await installApp(adminB, storageApp());
    const summary = await inspect(adminB);
    const result = await adminB.api.backup.restore({
      body: { backupId: summary.backupId, parts: summary.parts.map((p) => p.name) as (typeof backupPartNames)[number][] },
    });
    expect(result.restored).to.deep.equal([...backupPartNames]);
    expect(result.hostFailed).to.deep.equal([]);
    expect(result.skipped).to.deep.equal([]);
    expect(result.sharesWithoutDataset).to.deep.equal([]);
    // The restart a restore asks for: B is built again from its data directory.
    const dataDir = b.dataDir;
    await b.close({ keepData: true });
    b = await startTestDaemon({ dataDir }, options(sshB));
    adminB = await b.signIn('admin', adminPassword);
    // The network came back as a change awaiting confirmation, which the owner keeps.
    await adminB.api.systemNetwork.confirmNetwork({ params: { changeId: result.networkChange?.changeId ?? '' } });

    expect(await stateOf(adminB)).to.deep.equal(await stateOf(adminA));
    const again = await readBackup(Buffer.from(await (await adminB.api.backup.create({ body: { password: backupPassword } })).arrayBuffer()), backupPassword);
    const first = await readBackup(file, backupPassword);
    for (const name of backupPartNames) expect(comparable(name, again.parts[name]), name).to.deep.equal(comparable(name, first.parts[name]));
    // The restored users sign in with their old passwords, the second factor still asked for.
    const bob = await b.client().api.auth.login({ body: { username: 'bob', password: 'bob password 1' } });
    expect(bob.state).to.equal('totpRequired');
  });

  it('restores onto a box without the app, naming it as left out; the app installed afterwards for everybody opens to a plain user', async () => {
    const c = await startTestDaemon({}, options(sshDir()));
    try {
      let adminC = await c.signIn();
      const summary = await inspect(adminC);
      // Said before the restore too, on the part.
      expect(summary.parts.find((p) => p.name === 'apps')?.skipped).to.deep.equal([example.name]);
      const result = await adminC.api.backup.restore({ body: { backupId: summary.backupId, parts: ['users', 'groups', 'permissions', 'shares', 'apps'] } });
      expect(result.skipped).to.deep.equal([{ part: 'apps', names: [example.name] }]);
      adminC = await c.signIn('admin', adminPassword);
      expect((await adminC.api.apps.list()).apps).to.deep.equal([]);
      // Installed after the restore, for everybody (the default): bob, a plain restored user, may use it.
      await installApp(adminC, storageApp());
      const grants = await adminC.api.apps.grants({ params: { appId: example.id } });
      expect(grants.result.find((r) => r.username === 'bob')).to.include({ allowed: true, via: 'group' });
    } finally {
      await c.close();
    }
  });
});
