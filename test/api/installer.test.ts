import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { claimHeader } from '../../shared/src/api/installer/installer.ts';
import { createApiClient } from '../../shared/src/client.ts';
import { writeInstallId } from '../../daemon/src/areas/installer/install-id.ts';
import { expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { fetchFrom } from '../helpers/local-address.ts';

const installBody = {
  disk: 'nosuchdisk',
  fileSystem: 'ext4',
  boxName: 'Test box',
  admin: { username: 'owner', password: 'a long enough password 1' },
  language: 'en',
  region: 'DE',
  timeZone: 'Europe/Berlin',
  network: null,
} as const;

describe('installer mode', () => {
  let box: TestDaemon;
  let work: string;
  let now = Date.now();
  const lifetimeMs = 60_000;
  const maxMs = 3 * lifetimeMs;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-installer-'));
    const image = path.join(work, 'system.tar');
    writeFileSync(image, '');
    box = await startTestDaemon(
      { mode: 'installer', installerImage: image },
      // No host effects and no announcement: the system tests and the mDNS test do those.
      { clock: { now: () => now }, installer: { apply: false, reboot: false, mdns: false, claimLifetimeMs: lifetimeMs, claimMaxMs: maxMs } },
    );
  });
  after(async () => {
    await box?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('waits for a console, tells the sign-in page it is the installer, and refuses every other operation', async () => {
    const c = box.client();
    const status = await c.api.installer.status();
    expect(status).to.include({ state: 'waiting', claimExpiresAt: null, plan: null, progress: null, failure: null });
    expect(status).to.not.have.property('claimSecret');
    expect(await c.api.system.setup()).to.include({ mode: 'installer', installer: true });
    expect((await c.api.system.health()).status).to.equal('ok');
    await expectProblem(c.api.auth.session(), 'installer.mode.only', 403);
    await expectProblem(c.api.auth.login({ body: { username: 'admin', password: 'x' } }), 'installer.mode.only', 403);
    await expectProblem(c.api.users.list(), 'installer.mode.only', 403);
    const refused = await c.request('POST', '/api/setup', { body: {} });
    expect(((await refused.json()) as { code: string }).code).to.equal('installer.mode.only');
    await expectProblem(c.api.installer.installId(), 'installer.install_id.absent', 404);
    expect((await c.request('GET', '/api/openapi.json')).status).to.equal(200);
  });

  it('refuses every installer call without the claim secret, before and after a claim', async () => {
    const c = box.client();
    const calls = (headers?: Record<string, string>) => [
      () => c.api.installer.options({ headers }),
      () => c.api.installer.networkTest({ headers }),
      () => c.api.installer.startNetworkTest({ body: { interface: 'lo', method: 'dhcp', address: null, gateway: null, nameservers: [] }, headers }),
      () => c.api.installer.install({ body: installBody, headers }),
      () => c.api.installer.reboot({ headers }),
    ];
    for (const call of calls()) await expectProblem(call(), 'installer.claim.required', 401);
    const claim = await c.api.installer.claim();
    for (const call of calls({ [claimHeader]: 'not the secret' })) await expectProblem(call(), 'installer.claim.required', 401);
    for (const call of calls({ [claimHeader]: `${claim.claimSecret}x` })) await expectProblem(call(), 'installer.claim.required', 401);
    // Lapse the claim for the next test.
    now += lifetimeMs + 1;
  });

  it('gives the first caller the claim with a secret and a code, refuses a second until the claim lapses', async () => {
    const first = box.client();
    const second = box.client();
    const claim = await first.api.installer.claim();
    expect(claim.state).to.equal('claimed');
    expect(claim.claimSecret).to.match(/^[\w-]{40,}$/);
    expect(claim.claimCode).to.match(/^\d{6}$/);
    expect(Date.parse(claim.claimExpiresAt!)).to.equal(now + lifetimeMs);
    const taken = await expectProblem(second.api.installer.claim(), 'installer.claim.taken', 409);
    expect(taken.problem.params).to.deep.equal({ expiresAt: claim.claimExpiresAt });
    const status = await second.api.installer.status();
    expect(status).to.include({ state: 'claimed', claimExpiresAt: claim.claimExpiresAt });
    expect(status).to.not.have.property('claimSecret');
    expect(status).to.not.have.property('claimCode');

    // Each call of the holder renews the claim.
    now += lifetimeMs - 1000;
    const headers = { [claimHeader]: claim.claimSecret! };
    await first.api.installer.networkTest({ headers });
    expect(Date.parse((await first.api.installer.status()).claimExpiresAt!)).to.equal(now + lifetimeMs);

    now += lifetimeMs + 1;
    expect((await second.api.installer.status()).state).to.equal('waiting');
    const next = await second.api.installer.claim();
    expect(next.claimSecret).to.not.equal(claim.claimSecret);
    await expectProblem(first.api.installer.networkTest({ headers }), 'installer.claim.required', 401);
    await expectProblem(first.api.installer.claim({ headers }), 'installer.claim.taken', 409);
    // The holder may claim again for a fresh secret; the old one ends.
    const again = await second.api.installer.claim({ headers: { [claimHeader]: next.claimSecret! } });
    await expectProblem(second.api.installer.networkTest({ headers: { [claimHeader]: next.claimSecret! } }), 'installer.claim.required', 401);
    expect((await second.api.installer.networkTest({ headers: { [claimHeader]: again.claimSecret! } })).state).to.equal('idle');
    now += lifetimeMs + 1;
  });

  it('ends a claim at its maximum however often renewed, and lets another console claim before the same address again', async () => {
    // Two consoles on the LAN, told apart by the address their connections come from.
    const certificate = readFileSync(path.join(box.dataDir, 'medium-tls', 'certificate.pem'), 'utf8');
    const lan = (address: string) => createApiClient({ baseUrl: box.url, fetch: fetchFrom(address, certificate), csrfToken: () => null });
    const holder = lan('127.0.0.10');
    const other = lan('127.0.0.20');
    const start = now;
    const first = await holder.installer.claim();
    let secret = first.claimSecret!;
    // Renewing by calls and by claiming again with the secret: the claim never passes its end.
    for (let i = 0; i < 3; i++) {
      now += lifetimeMs - 1000;
      if (i % 2) secret = (await holder.installer.claim({ headers: { [claimHeader]: secret } })).claimSecret!;
      else await holder.installer.networkTest({ headers: { [claimHeader]: secret } });
      const expiresAt = Date.parse((await other.installer.status()).claimExpiresAt!);
      expect(expiresAt).to.equal(Math.min(now + lifetimeMs, start + maxMs));
    }
    const taken = await expectProblem(other.installer.claim(), 'installer.claim.taken', 409);
    expect(taken.problem.params).to.deep.equal({ expiresAt: new Date(start + maxMs).toISOString() });

    now = start + maxMs;
    expect((await other.installer.status()).state).to.equal('waiting');
    await expectProblem(holder.installer.networkTest({ headers: { [claimHeader]: secret } }), 'installer.claim.required', 401);
    const until = new Date(start + maxMs + lifetimeMs).toISOString();
    for (const headers of [{}, { [claimHeader]: secret }] as Record<string, string>[]) {
      const spent = await expectProblem(holder.installer.claim({ headers }), 'installer.claim.spent', 409);
      expect(spent.problem.params).to.deep.equal({ until });
    }
    const next = await other.installer.claim();
    expect(next.state).to.equal('claimed');
    await expectProblem(holder.installer.claim(), 'installer.claim.taken', 409);

    // Once the other console's claim lapsed and the turn is over, the first address may claim again.
    now = start + maxMs + lifetimeMs;
    expect((await holder.installer.claim()).state).to.equal('claimed');
    now += lifetimeMs + 1;
  });

  it('lists target disks with the disk guard verdict, languages, regions, zones and the network; refuses unknown disks and bad input', async () => {
    const c = box.client();
    const headers = { [claimHeader]: (await c.api.installer.claim()).claimSecret! };
    const options = await c.api.installer.options({ headers });
    for (const disk of options.disks) expect(disk.usable, disk.name).to.equal(disk.reasons.length === 0);
    // The disk the test machine runs from is never a target.
    for (const disk of options.disks.filter((d) => d.reasons.some((r) => r.reason === 'systemDisk'))) expect(disk.usable).to.equal(false);
    expect(options.minDiskBytes).to.equal(8 * 1024 ** 3);
    expect(options.fileSystems).to.deep.equal(['ext4', 'zfs']);
    expect(options.languages).to.deep.equal(['en', 'de']);
    expect(options.regions).to.include.members(['DE', 'AT', 'CH', 'US']);
    expect(options.regions).to.not.include('EU');
    expect(options.timeZones).to.include.members(['UTC', 'Europe/Berlin']);
    await expectProblem(c.api.installer.install({ body: installBody, headers }), 'installer.disk.unknown', 422);
    await expectProblem(c.api.installer.install({ body: { ...installBody, timeZone: '../etc' }, headers }), 'request.body.invalid', 400);
    await expectProblem(
      c.api.installer.install({ body: { ...installBody, admin: { username: 'Root!', password: 'x' } }, headers }),
      'request.body.invalid',
      400,
    );
    await expectProblem(
      c.api.installer.startNetworkTest({ body: { interface: 'eth0', method: 'static', address: null, gateway: null, nameservers: [] }, headers }),
      'request.body.invalid',
      400,
    );
    for (const bad of [
      { address: 'v1.x/3', gateway: null, nameservers: [] },
      { address: '010.0.0.2/8', gateway: null, nameservers: [] },
      { address: '192.0.2.2/24', gateway: 'v1.x', nameservers: [] },
      { address: '192.0.2.2/24', gateway: null, nameservers: ['192.0.2.053'] },
    ]) {
      await expectProblem(c.api.installer.startNetworkTest({ body: { interface: 'eth0', method: 'static', ...bad }, headers }), 'request.body.invalid', 400);
    }
    await expectProblem(
      c.api.installer.startNetworkTest({ body: { interface: 'nosuchcard0', method: 'dhcp', address: null, gateway: null, nameservers: [] }, headers }),
      'installer.network.unknown_interface',
      422,
    );
    await c.api.installer.reboot({ headers });
    now += lifetimeMs + 1;
  });
});

describe('install id outside installer mode', () => {
  let box: TestDaemon;
  before(async () => {
    box = await startTestDaemon();
  });
  after(() => box?.close());

  it('answers 404 until an installer wrote the id, then the id; the installer operations answer that the mode is off', async () => {
    const c = box.client();
    await expectProblem(c.api.installer.installId(), 'installer.install_id.absent', 404);
    await expectProblem(c.api.installer.status(), 'installer.mode.inactive', 409);
    await expectProblem(c.api.installer.claim(), 'installer.mode.inactive', 409);
    const written = { installId: '6f1c2a9e-1b7d-4c55-9a39-0d0f9e7b2c11', installedAt: '2026-11-25T20:00:00.000Z' };
    await writeInstallId(box.dataDir, written);
    expect(await c.api.installer.installId()).to.deep.equal(written);
  });
});
