import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { adminCaller, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.ts';
import { tempEntries } from '../helpers/file-operations.ts';
import { until } from '../helpers/until.ts';

const MiB = 1024 * 1024;

/**
 * Issue 11: kill -9 during an upload and during a copy left hidden temporaries that filled the
 * share for ever. After a restart the daemon's sweep (at start, then daily) removes them.
 */
describe('system: temporaries of a killed daemon are gone after the restart', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-crash-'));
  const folder = mkdtempSync(path.join(tmpdir(), 'cellar-crash-share-'));
  let box: DaemonProcess | undefined;

  after(async () => {
    await box?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('removes a half upload and a half copy left by kill -9', async () => {
    box = await startDaemonProcess({ dataDir });
    const call = await adminCaller(box.base);
    const share = (await (await call('POST', '/api/shares', { name: 'Crash', hostPath: folder })).json()) as { id: number };

    // A large source for the copy: sparse on disk, 1 GiB to read and write.
    const fd = openSync(path.join(folder, 'big.bin'), 'w');
    ftruncateSync(fd, 1024 * MiB);
    closeSync(fd);
    writeFileSync(path.join(folder, 'keep.txt'), 'kept');

    // An upload that sends 8 MiB of a declared 300 MiB and then waits, mid-way, for the kill.
    const upload = request(`${box.base}/api/files/${share.id}/content?path=half.bin`, {
      method: 'PUT',
      headers: { ...call.headers(), 'Content-Type': 'application/octet-stream', 'Content-Length': String(300 * MiB) },
    });
    upload.on('error', () => undefined);
    upload.write(Buffer.alloc(8 * MiB, 1));
    await until('the upload has a temporary', () => tempEntries(folder).length === 1);

    const copy = await call('POST', '/api/files/operations', {
      op: 'copy',
      sources: [{ shareId: share.id, path: 'big.bin' }],
      target: { shareId: share.id, path: '' },
      onConflict: 'rename',
    });
    expect(copy.status).to.equal(202);
    await until('the copy has a temporary too', () => tempEntries(folder).length === 2);
    box.kill('SIGKILL');
    await box.close();
    expect(tempEntries(folder)).to.have.length(2);

    box = await startDaemonProcess({ dataDir });
    await until('the sweep at start removed both', () => tempEntries(folder).length === 0);
    expect(readdirSync(folder).sort()).to.deep.equal(['big.bin', 'keep.txt']);
  });
});
