import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';

const MiB = 1024 * 1024;

/** A real, small ext4 file system on a loop device: 48 MiB, so a 50 MiB upload cannot fit. */
function mountSmallFs(): { mountpoint: string; close(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-space-'));
  const image = path.join(dir, 'disk.img');
  const mountpoint = path.join(dir, 'mnt');
  mkdirSync(mountpoint);
  execFileSync('truncate', ['-s', '48M', image]);
  execFileSync('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
  const device = execFileSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).trim();
  execFileSync('mount', [device, mountpoint]);
  return {
    mountpoint,
    close: () => {
      execFileSync('umount', [mountpoint]);
      execFileSync('losetup', ['-d', device]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A chunked upload (no Content-Length), so the daemon learns the size only when the disk runs full. */
function chunkedUpload(client: TestClient, url: string, bytes: number): Promise<{ status: number; body: { code?: string; params?: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PUT',
        headers: {
          Cookie: client.cookieHeader(),
          'X-CSRF-Token': client.csrfToken ?? '',
          'Content-Type': 'application/octet-stream',
          'Transfer-Encoding': 'chunked',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as { code?: string } }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(MiB, 7);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** Issue 19: a full share is a state of its own (507 fs.space.insufficient), never the client's fault nor a 500. */
describe('system: a share without room', function () {
  this.timeout(60_000);
  let fs: ReturnType<typeof mountSmallFs>;
  let box: TestDaemon;
  let admin: TestClient;
  let shareId: number;
  let folder: string;

  before(async function () {
    if (process.getuid?.() !== 0) throw new Error('This test mounts a loop device: run the suite as root (CI does).');
    fs = mountSmallFs();
    folder = path.join(fs.mountpoint, 'Photos');
    mkdirSync(folder);
    box = await startTestDaemon();
    admin = await box.signIn();
    shareId = (await admin.api.shares.create({ body: { name: 'Photos', hostPath: folder } })).id;
  });
  after(async () => {
    await box?.close();
    fs?.close();
  });

  const leftovers = () => readdirSync(folder).filter((n) => n.startsWith('.cellar-'));

  it('refuses an upload whose Content-Length does not fit at once, with the share and both sizes', async () => {
    const res = await admin.request('PUT', `/api/files/${shareId}/content?path=big.bin`, {
      body: 'x'.repeat(50 * MiB),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status).to.equal(507);
    const problem = (await res.json()) as { code: string; params: { share: string; needed: number; free: number } };
    expect(problem.code).to.equal('fs.space.insufficient');
    expect(problem.params.share).to.equal('Photos');
    expect(problem.params.needed).to.equal(50 * MiB);
    expect(problem.params.free).to.be.within(30 * MiB, 48 * MiB);
    expect(readdirSync(folder)).to.deep.equal([]);
  });

  it('answers 507 when a chunked upload runs the disk full, and leaves nothing behind', async () => {
    const answer = await chunkedUpload(admin, `${box.url}/api/files/${shareId}/content?path=chunked.bin`, 60 * MiB);
    expect(answer.status).to.equal(507);
    expect(answer.body).to.deep.include({ code: 'fs.space.insufficient' });
    expect(answer.body.params).to.deep.include({ share: 'Photos', needed: null });
    expect(readdirSync(folder)).to.deep.equal([]);
    // The share stays usable.
    const small = await admin.request('PUT', `/api/files/${shareId}/content?path=small.txt`, {
      body: 'still works',
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(small.status).to.equal(201);
  });

  it('fails a copy job that does not fit with fs.space.insufficient in the job, leaving no partial copy', async () => {
    writeFileSync(path.join(folder, 'source.bin'), Buffer.alloc(25 * MiB, 1));
    const job = await admin.api.fileOperations.run({
      body: { op: 'copy', sources: [{ shareId, path: 'source.bin' }], target: { shareId, path: '' }, onConflict: 'rename' },
    });
    const done = await finished(admin, job.id);
    expect(done.state).to.equal('failed');
    expect(done.error).to.deep.include({ code: 'fs.space.insufficient', status: 507 });
    expect(done.error?.params).to.deep.include({ share: 'Photos', needed: 25 * MiB });
    expect(leftovers()).to.deep.equal([]);
    expect(readdirSync(folder).sort()).to.deep.equal(['small.txt', 'source.bin']);
  });
});
