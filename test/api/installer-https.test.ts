import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { expect } from 'chai';
import { claimHeader } from '../../shared/src/api/installer/installer.ts';
import { expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { nodeFetch, spkiSha256 } from '../helpers/local-address.ts';

/** The certificate the daemon presents on a fresh connection, trusting nothing (as a console before the owner compared). */
const presented = (port: number) =>
  new Promise<X509Certificate>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!);
      socket.end();
    });
    socket.on('error', reject);
  });

/** A plain HTTP request: answered, or the error the connection ended with. */
const plainGet = (url: string) =>
  new Promise<number | Error>((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', resolve);
  });

describe('installer mode over HTTPS, and what its screen shows', () => {
  let box: TestDaemon;
  let work: string;
  let now = Date.now();
  const lifetimeMs = 60_000;
  const maxMs = 3 * lifetimeMs;
  let screenFile: string;
  /** When the daemon ran its restart, as the test's reboot seam records it. */
  const reboots: number[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-installer-https-'));
    const image = path.join(work, 'system.tar');
    writeFileSync(image, '');
    screenFile = path.join(work, 'screen');
    box = await startTestDaemon(
      { mode: 'installer', installerImage: image },
      {
        clock: { now: () => now },
        installer: {
          apply: false,
          reboot: async () => void reboots.push(Date.now()),
          mdns: false,
          claimLifetimeMs: lifetimeMs,
          claimMaxMs: maxMs,
          screenFile,
        },
      },
    );
  });
  after(async () => {
    await box?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves only HTTPS, with a key made at its start whose fingerprint GET /api/installer names', async () => {
    expect(box.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await plainGet(`${box.url.replace('https:', 'http:')}/api/installer`)).to.be.instanceOf(Error);
    const cert = await presented(Number(new URL(box.url).port));
    const status = await box.client().api.installer.status();
    expect(status.fingerprint.sha256).to.equal(spkiSha256(cert.toString()));
    const groups = status.fingerprint.sha256.slice(0, 20).toUpperCase().match(/.{4}/g)!;
    expect(status.fingerprint.short).to.equal(groups.join(' '));
    // The key lives only in the state directory, closed to everyone but the daemon.
    expect(statSync(box.dataDir).mode & 0o777).to.equal(0o700);
    expect(statSync(path.join(box.dataDir, 'medium-tls', 'key.pem')).mode & 0o777).to.equal(0o600);
    expect(readFileSync(path.join(box.dataDir, 'medium-tls', 'certificate.pem'), 'utf8')).to.equal(cert.toString());
  });

  it('makes a new key at every start, so a console that pinned another medium cannot reach this one', async () => {
    const ours = readFileSync(path.join(box.dataDir, 'medium-tls', 'certificate.pem'), 'utf8');
    const elsewhere = await startTestDaemon(
      { mode: 'installer', installerImage: path.join(work, 'system.tar') },
      { installer: { apply: false, reboot: false, mdns: false, screenFile: path.join(work, 'other-screen') } },
    );
    try {
      const theirs = readFileSync(path.join(elsewhere.dataDir, 'medium-tls', 'certificate.pem'), 'utf8');
      expect(spkiSha256(theirs)).to.not.equal(spkiSha256(ours));
      const refused = await nodeFetch({ pinnedCertificate: theirs })(`${box.url}/api/installer`).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).to.be.instanceOf(Error);
    } finally {
      await elsewhere.close();
    }
  });

  it("shows the addresses and the fingerprint, once claimed the code beside it, and at the claim's limit that the owner must claim again", async () => {
    const c = box.client();
    const { fingerprint } = await c.api.installer.status();
    let screen = readFileSync(screenFile, 'utf8');
    expect(screen).to.include(`${box.url}\n`);
    expect(screen).to.include(fingerprint.short).and.include(fingerprint.sha256);
    expect(screen).to.include('Waiting for a console');

    const start = now;
    const claim = await c.api.installer.claim();
    const code = `${claim.claimCode!.slice(0, 3)} ${claim.claimCode!.slice(3)}`;
    screen = readFileSync(screenFile, 'utf8');
    expect(screen).to.include(`code ${code} · key ${fingerprint.short}`);
    expect(screen).to.not.include('Waiting for a console');

    // Renewed up to the limit: the claim ends, and the screen asks for a new claim.
    const headers = { [claimHeader]: claim.claimSecret! };
    for (now += lifetimeMs - 1000; now < start + maxMs; now += lifetimeMs - 1000) await c.api.installer.networkTest({ headers });
    now = start + maxMs;
    expect((await c.api.installer.status()).state).to.equal('waiting');
    screen = readFileSync(screenFile, 'utf8');
    expect(screen).to.not.include(code);
    expect(screen).to.include('The claim reached its 3-minute limit: claim this box again in the console.');
    await expectProblem(c.api.installer.networkTest({ headers }), 'installer.claim.required', 401);
    now += 2 * lifetimeMs;
  });

  it('answers POST /api/installer/reboot with 202 before the restart runs, and restarts once', async () => {
    const c = box.client();
    const headers = { [claimHeader]: (await c.api.installer.claim()).claimSecret! };
    const answer = await c.request('POST', '/api/installer/reboot', { headers });
    expect(answer.status).to.equal(202);
    // The answer arrived while the restart had not begun.
    expect(reboots).to.deep.equal([]);
    await c.api.installer.reboot({ headers });
    for (const deadline = Date.now() + 5000; reboots.length === 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 700));
    expect(reboots).to.have.length(1);
    now += 2 * lifetimeMs;
  });
});
