import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { opensslVerify } from '../helpers/openssl.ts';
import { insertUser } from '../helpers/users.ts';

/** `openssl verify` with the revocation list checked for the leaf (its issuer's CRL). */
function verifyWithCrl(files: { root: string; chain: string; leaf: string; crl: string }, dir: string): { ok: boolean; output: string } {
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const args = ['verify', '-crl_check', '-CAfile', file('root.pem', files.root), '-untrusted', file('chain.pem', files.chain)];
  const run = spawnSync('openssl', [...args, '-CRLfile', file('crl.pem', files.crl), file('leaf.pem', files.leaf)], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

describe('tls API: certificates issued for devices (never the box names, revocable)', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let dir: string;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    await insertUser(box, 'alice', 'alice password 1');
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-tls-crl-'));
  });
  after(async () => {
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a device certificate for the box's own names, its extra names or a wildcard covering one", async () => {
    const settings = await admin.api.tls.setNames({ body: { names: ['nas.local'] } });
    // Another spelling of an address is the same address.
    const own = [...settings.names.automatic, 'nas.local', 'NAS.local', '*.local', ...(settings.names.automatic.includes('::1') ? ['0:0::1'] : [])];
    expect(settings.names.automatic).to.include('localhost');
    for (const name of own) {
      const err = await expectProblem(admin.api.tls.issue({ body: { names: ['camera.local', name] } }), 'tls.name.box_own', 422);
      expect(err.problem.params, name).to.deep.equal({ name });
    }
    expect((await admin.api.tls.settings()).issued).to.deep.equal([]);
    // Other names of the same domain, and a wildcard below a box name, are the devices' own.
    const files = await admin.api.tls.issue({ body: { names: ['camera.local', '*.cams.local', '192.168.77.5'] } });
    expect(files.info.names).to.deep.equal(['camera.local', '*.cams.local', '192.168.77.5']);
  });

  it('revokes an issued certificate onto a signed revocation list that openssl checks; the others stay valid', async () => {
    const root = await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text();
    const printer = await admin.api.tls.issue({ body: { names: ['printer.local'] } });
    const scanner = await admin.api.tls.issue({ body: { names: ['scanner.local'] } });
    const crl = async () => {
      // Public, as the root is: a device checks it without an account.
      const answer = await fetch(`${box.url}/api/system/tls/revoked.crl`);
      expect(answer.status).to.equal(200);
      return answer.text();
    };
    const check = async (files: typeof printer) => verifyWithCrl({ root, chain: files.chain, leaf: files.certificate, crl: await crl() }, dir);
    expect((await check(printer)).ok).to.equal(true);

    const alice = await box.signIn('alice', 'alice password 1');
    await expectProblem(alice.api.tls.revokeIssued({ params: { id: printer.id } }), 'auth.permission.denied', 403);
    await expectProblem(box.client().api.tls.revokeIssued({ params: { id: printer.id } }), 'auth.session.required', 401);
    await expectProblem(admin.api.tls.revokeIssued({ params: { id: 9999 } }), 'tls.issued.not_found', 404);
    expect((await admin.request('POST', `/api/system/tls/issued/${printer.id}/revoke`)).status).to.equal(204);
    // Twice is once.
    await admin.api.tls.revokeIssued({ params: { id: printer.id } });

    const revoked = await check(printer);
    expect(revoked.ok).to.equal(false);
    expect(revoked.output).to.match(/certificate revoked/);
    expect((await check(scanner)).ok).to.equal(true);
    // Without the list the certificate still chains: revocation is the list's, as RFC 5280 has it.
    expect(opensslVerify({ root, intermediates: printer.chain, leaf: printer.certificate, hostname: 'printer.local' }).ok).to.equal(true);

    const listed = (await admin.api.tls.settings()).issued;
    expect(listed.find((c) => c.id === printer.id)?.revokedAt).to.be.a('string');
    expect(listed.find((c) => c.id === scanner.id)?.revokedAt).to.equal(null);
    // Removed from the list, it stays revoked.
    await admin.api.tls.removeIssued({ params: { id: printer.id } });
    expect((await check(printer)).output).to.match(/certificate revoked/);
    const listText = spawnSync('openssl', ['crl', '-noout', '-text', '-in', path.join(dir, 'crl.pem')], { encoding: 'utf8' }).stdout;
    expect(listText).to.include(printer.info.serial.replace(/^0+/, ''));
  });
});
