import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import path from 'node:path';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import { outsideCertificates } from '../helpers/certificates.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { handshake, httpsClient } from '../helpers/https-client.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';

/** The SHA-256 fingerprint of the certificate a fresh TLS connection is shown. */
function presentedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // Only looks at what is served; trust is checked by the clients below.
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('tls: the daemon over HTTPS', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let root: string;
  let client: ReturnType<typeof httpsClient>;
  let live: TestSocket;
  let port: number;

  before(async () => {
    box = await startTestDaemon({ https: true });
    port = Number(new URL(box.url).port);
    // Trust comes from the data directory, not from what the connection shows.
    root = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    client = httpsClient(box.url, root);
  });
  after(async () => {
    live?.close();
    client?.close();
    await box.close();
  });

  it('serves the API over HTTPS with a chain to its root, and a Secure session cookie', async () => {
    expect(box.url).to.match(/^https:\/\/127\.0\.0\.1:/);
    const answer = await client.signIn('admin', adminPassword);
    expect(answer.status).to.equal(200);
    expect(String(answer.headers['set-cookie'])).to.match(/box\.sid=.*; Secure/i);
    const settings = JSON.parse((await client.send('GET', '/api/system/tls')).body) as { https: boolean; presented: { source: string } };
    expect(settings).to.deep.include({ https: true });
    expect(settings.presented.source).to.equal('box');
  });

  it('keeps a live topic and open connections through certificate swaps, while new connections get the new one', async () => {
    live = await connectSocket(box.url, null, { cookie: client.cookieHeader(), ca: root });
    expect(await live.subscribe('desktop')).to.deep.include({ ok: true });
    const socketId = live.socket.id;
    const event = async (label: string) => {
      const next = live.nextEvent('desktop', 10_000);
      const made = await client.send('POST', '/api/desktop/items', { kind: 'app', label, appId: 'org.service.logs' });
      expect(made.status).to.equal(201);
      return (await next).data as { label: string };
    };
    expect(await event('before')).to.include({ label: 'before' });
    const boxFingerprint = await presentedFingerprint(port);

    const outside = await outsideCertificates();
    const upload = await outside.server({ names: ['localhost', '127.0.0.1'] });
    const put = await client.send('PUT', '/api/system/tls/custom', { certificate: upload.chain, privateKey: upload.privateKeyPem });
    expect(put.status, put.body).to.equal(200);
    expect(await presentedFingerprint(port)).to.equal(new X509Certificate(upload.certificatePem).fingerprint256);
    expect(await event('after the upload')).to.include({ label: 'after the upload' });

    const removed = await client.send('DELETE', '/api/system/tls/custom');
    expect(removed.status).to.equal(200);
    expect(await presentedFingerprint(port)).to.equal(boxFingerprint);

    const replaced = await client.send('POST', '/api/system/tls/authority', {});
    expect(replaced.status).to.equal(200);
    expect(await presentedFingerprint(port)).to.not.equal(boxFingerprint);
    expect(await event('after a new authority')).to.include({ label: 'after a new authority' });
    expect(live.socket.connected).to.equal(true);
    expect(live.socket.id).to.equal(socketId);
  });

  it("offers TLS 1.2 only with ECDHE and AES-GCM or ChaCha20 (Mozilla's intermediate profile), also after a certificate swap", async () => {
    const check = async () => {
      // CBC suites, with or without forward secrecy, and the static RSA key exchange: all refused.
      for (const cipher of ['AES256-SHA', 'AES128-SHA256', 'AES256-GCM-SHA384', 'ECDHE-RSA-AES256-SHA', 'ECDHE-RSA-AES128-SHA256'])
        expect(await handshake({ port }, cipher, 'TLSv1.2'), cipher).to.equal('refused');
      expect(await handshake({ port }, 'ECDHE-RSA-AES128-GCM-SHA256', 'TLSv1.2')).to.deep.equal({
        cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
        protocol: 'TLSv1.2',
      });
      expect(await handshake({ port }, 'ECDHE-RSA-CHACHA20-POLY1305', 'TLSv1.2')).to.deep.include({ protocol: 'TLSv1.2' });
      expect(await handshake({ port }, undefined, 'TLSv1.3')).to.deep.include({ protocol: 'TLSv1.3' });
    };
    await check();
    // A new certificate is a new secure context: it must keep the same policy.
    const reissued = await client.send('PUT', '/api/system/tls/names', { names: ['cellar-extra.local'] });
    expect(reissued.status, reissued.body).to.equal(200);
    await check();
  });
});
