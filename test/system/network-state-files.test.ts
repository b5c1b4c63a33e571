import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkConfig } from '../../shared/src/api/network/network.ts';
import { NetworkService } from '../../daemon/src/areas/network/network.service.ts';
import type { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { NetworkHost } from '../../daemon/src/host/network/network-host.ts';

/**
 * The network area's own files on a full disk (a tmpfs of a few pages): a write that fails must
 * leave the file it replaces whole, or every later request and the next start of the daemon fail
 * on half a JSON document. The host only logs its changes here (development mode), reading this
 * machine's links.
 */
describe('network state files on a full disk (root, tmpfs)', function () {
  this.timeout(60_000);
  let mountPoint: string;
  let service: NetworkService;

  before(() => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    mountPoint = mkdtempSync(path.join(tmpdir(), 'cellar-network-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'cellar-network-full', mountPoint]);
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    const host = new NetworkHost({
      root: mountPoint,
      apply: false,
      namespace: null,
      setHostName: false,
      systemd: false,
      runner: new CommandRunner(logger, false),
      logger,
    });
    service = new NetworkService({ host, stateDir: path.join(mountPoint, 'network'), clock: { now: () => Date.now() }, logger, changed: () => undefined });
  });
  after(() => {
    service?.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('leaves no half-written configured.json when keeping a change fails for lack of space, and records the kept change once there is room', async () => {
    const live = await service.state(null);
    const config: NetworkConfig = { ...live.configured, hostName: 'cellar-full' };
    const pending = await service.apply(config, { localAddress: null, scheme: 'http', port: 7484 }, 1);
    // Fill what is left: the next write finds no block.
    let filler = 0;
    try {
      for (;;) writeFileSync(path.join(mountPoint, `filler-${filler++}`), Buffer.alloc(4096));
    } catch {
      // ENOSPC: the disk is full now.
    }
    const failed = await service.confirm(pending.changeId).then(
      () => null,
      (err: unknown) => err as ProblemError,
    );
    // The host kept the change before the record failed: the answer says so, never a bare ENOSPC.
    expect(failed?.code).to.equal('network.change.unrecorded');
    const files = readdirSync(path.join(mountPoint, 'network'));
    expect(files.filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
    if (files.includes('configured.json'))
      expect(() => JSON.parse(readFileSync(path.join(mountPoint, 'network/configured.json'), 'utf8')) as unknown).to.not.throw();
    // Still full: the state reads, and shows the change as kept.
    expect((await service.state(null)).pending).to.equal(null);
    // Space again: the confirmation is recorded at the next read.
    for (let n = 0; n < filler; n++) rmSync(path.join(mountPoint, `filler-${n}`), { force: true });
    expect((await service.state(null)).configured.hostName).to.equal('cellar-full');
    expect((JSON.parse(readFileSync(path.join(mountPoint, 'network/configured.json'), 'utf8')) as NetworkConfig).hostName).to.equal('cellar-full');
  });
});
