import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { debianArchitecture } from '../../daemon/src/areas/updates/signed-release.ts';
import { product } from '../../daemon/src/core/product.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';
import { bundleOf, buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';

const arch = debianArchitecture();

describe('system updates: status, settings, the uploaded bundle and its rules', () => {
  let work: string;
  let signer: TestSigner;
  let box: TestDaemon;
  let admin: TestClient;
  let n = 0;

  /** A bundle of a release of `version` for `architecture`, signed by `by` (null: unsigned). */
  const bundle = (version: string, options: { architecture?: string; by?: TestSigner | null; tamper?: boolean } = {}): Buffer => {
    const dir = path.join(work, `bundle-${n++}`);
    const deb = buildDeb(dir, { name: 'cellar', version, architecture: options.architecture ?? arch });
    const index = indexFor(version, [{ file: deb, architecture: options.architecture ?? arch }]);
    if (options.tamper) index.packages[0]!.sha256 = '0'.repeat(64);
    const release = path.join(dir, 'release');
    writeRelease(release, options.by === undefined ? signer : options.by, index, [deb]);
    return bundleOf(release, path.join(dir, 'bundle.tar'));
  };
  const upload = (data: Buffer) => admin.api.updates.upload({ body: new Uint8Array(data) });

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-updates-api-'));
    signer = new TestSigner(work);
    box = await startTestDaemon({ trustedKeysFile: signer.keyFile });
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('says updates do not apply on a development daemon, with the running version and defaults', async () => {
    const status = await admin.api.updates.status();
    expect(status.applies).to.equal(false);
    expect(status.notApplicable).to.equal('development');
    expect(status.installed.version).to.equal(product.version);
    expect(status.architecture).to.equal(arch);
    expect(status.settings).to.deep.equal({ channel: 'stable', checkTime: '03:00', automaticSecurity: false });
    expect(status.lastCheck).to.equal(null);
    expect(status.upload).to.equal(null);
    expect(status.history).to.deep.equal([]);
    expect(status.snapshots).to.deep.equal([]);
    await expectProblem(admin.api.updates.check(), 'system.updates.not_applicable', 409);
    await expectProblem(admin.api.updates.install({ body: { box: 'none', distribution: true } }), 'system.updates.not_applicable', 409);
    await expectProblem(admin.api.updates.restore({ params: { name: 'service-update-20261125T000000Z' } }), 'system.updates.not_applicable', 409);
  });

  it('keeps the settings and refuses bad ones', async () => {
    const status = await admin.api.updates.setSettings({ body: { channel: 'beta', checkTime: '04:30', automaticSecurity: true } });
    expect(status.settings).to.deep.equal({ channel: 'beta', checkTime: '04:30', automaticSecurity: true });
    expect((await admin.api.updates.status()).settings.channel).to.equal('beta');
    await expectProblem(
      admin.api.updates.setSettings({ body: { channel: 'nightly' as 'beta', checkTime: '04:30', automaticSecurity: true } }),
      'request.body.invalid',
      400,
    );
    await expectProblem(
      admin.api.updates.setSettings({ body: { channel: 'stable', checkTime: '24:00', automaticSecurity: false } }),
      'request.body.invalid',
      400,
    );
  });

  it('refuses a bundle without a signature, by an unknown key, or with a changed index', async () => {
    const unsigned = await expectProblem(upload(bundle('9.0.0', { by: null })), 'system.update.unsigned', 422);
    expect(unsigned.problem.params).to.deep.equal({ reason: 'missing' });
    const stranger = await expectProblem(upload(bundle('9.0.0', { by: new TestSigner(work, 'stranger') })), 'system.update.unsigned', 422);
    expect(stranger.problem.params).to.deep.equal({ reason: 'unknown_key' });
    await expectProblem(upload(bundle('9.0.0', { tamper: true })), 'system.update.hash_mismatch', 422);
    expect((await admin.api.updates.status()).upload).to.equal(null);
  });

  it('refuses a bundle for another architecture', async () => {
    const other = arch === 'amd64' ? 'arm64' : 'amd64';
    const refused = await expectProblem(upload(bundle('9.0.0', { architecture: other })), 'system.update.architecture', 422);
    expect(refused.problem.params).to.deep.equal({ architecture: other, box: arch });
  });

  it('refuses a bundle older than or as old as the installed version', async () => {
    const older = await expectProblem(upload(bundle('0.0.9')), 'system.update.not_newer', 422);
    expect(older.problem.params).to.deep.equal({ version: '0.0.9', installed: product.version });
    await expectProblem(upload(bundle(product.version)), 'system.update.not_newer', 422);
  });

  it('refuses what is not a bundle', async () => {
    await expectProblem(upload(Buffer.from('not a tar archive at all'.repeat(40))), 'system.update.invalid', 400);
    const dir = path.join(work, 'no-index');
    const deb = buildDeb(dir, { name: 'cellar', version: '9.0.0' });
    await expectProblem(upload(bundleOf(dir, path.join(work, 'no-index.tar'), [path.basename(deb)])), 'system.update.invalid', 400);
  });

  it('keeps a good bundle waiting until discarded, a newer one replacing it', async () => {
    let status = await upload(bundle('9.0.0'));
    expect(status.upload).to.include({ version: '9.0.0', commit: 'abcdef0', architecture: arch, notes: 'Version 9.0.0' });
    expect(status.upload).to.not.have.property('file');
    status = await upload(bundle('9.1.0'));
    expect(status.upload?.version).to.equal('9.1.0');
    status = await admin.api.updates.discardUpload();
    expect(status.upload).to.equal(null);
    await expectProblem(admin.api.updates.discardUpload(), 'system.update.not_found', 404);
  });

  it('answers administrators only', async () => {
    await insertUser(box, 'updates-user', 'a long enough password 1');
    const user = await box.signIn('updates-user', 'a long enough password 1');
    await expectProblem(user.api.updates.status(), 'auth.permission.denied', 403);
    await expectProblem(user.api.updates.upload({ body: new Uint8Array(bundle('9.0.0')) }), 'auth.permission.denied', 403);
  });
});

describe('system updates: checking a signed channel', () => {
  let work: string;
  let signer: TestSigner;
  let channel: { url: string; server: Server };
  let box: TestDaemon;
  let admin: TestClient;

  const publish = (name: string, version: string, by: TestSigner | null) => {
    const dir = path.join(work, 'channels', name);
    const deb = buildDeb(path.join(work, `${name}-build`), { name: 'cellar', version, architecture: arch });
    writeRelease(dir, by, indexFor(version, [{ file: deb, architecture: arch }]), [deb]);
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-updates-channel-'));
    signer = new TestSigner(work);
    publish('stable', '9.2.0', signer);
    publish('beta', '0.0.1', signer);
    channel = await serveFolder(path.join(work, 'channels'));
    box = await startTestDaemon({ trustedKeysFile: signer.keyFile }, { updates: { channelUrl: channel.url } });
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    channel.server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("lists the channel's newer version and installs nothing", async () => {
    const status = await admin.api.updates.check();
    expect(status.lastCheck?.error).to.equal(null);
    expect(status.lastCheck?.available).to.include({ version: '9.2.0', commit: 'abcdef0' });
    expect(status.lastCheck?.distribution).to.deep.equal([]);
    expect(status.installed.version).to.equal(product.version);
    expect(status.history).to.deep.equal([]);
  });

  it('says nothing is available when the channel is older, and keeps an unsigned index as the check error', async () => {
    await admin.api.updates.setSettings({ body: { channel: 'beta', checkTime: '03:00', automaticSecurity: false } });
    let status = await admin.api.updates.check();
    expect(status.lastCheck?.available).to.equal(null);
    expect(status.lastCheck?.error).to.equal(null);
    publish('beta', '9.3.0', null);
    status = await admin.api.updates.check();
    expect(status.lastCheck?.available).to.equal(null);
    expect(status.lastCheck?.error?.code).to.equal('system.update.unsigned');
  });
});

describe('system updates: a channel of the box’s own, named in its configuration file', () => {
  it('reads the channel of updateChannelUrl and trusts the keys of updateKeysFile for it', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'cellar-updates-own-'));
    const signer = new TestSigner(work, 'owner-channel');
    const deb = buildDeb(path.join(work, 'build'), { name: 'cellar', version: '9.4.0', architecture: arch });
    writeRelease(path.join(work, 'channels/stable'), signer, indexFor('9.4.0', [{ file: deb, architecture: arch }]), [deb]);
    const channel = await serveFolder(path.join(work, 'channels'));
    // No channel from the test's seams and no BOX_TRUSTED_KEYS: only what the configuration file names.
    const box = await startTestDaemon({ updateChannelUrl: channel.url, updateKeysFile: signer.keyFile });
    try {
      const status = await (await box.signIn()).api.updates.check();
      expect(status.lastCheck?.error).to.equal(null);
      expect(status.lastCheck?.available).to.include({ version: '9.4.0' });
    } finally {
      await box.close();
      channel.server.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
