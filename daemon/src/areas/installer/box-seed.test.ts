import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { InstallRequest } from '../../../../shared/src/api/installer/installer.ts';
import type { SetupInfo } from '../../../../shared/src/api/system/system.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { createDaemon } from '../../daemon.ts';
import { seedBox, type DaemonFactory } from './box-seed.ts';

const request: InstallRequest = {
  disk: 'unused-here',
  fileSystem: 'ext4',
  boxName: 'Seeded Box',
  admin: { username: 'owner', password: 'the owner password 1' },
  language: 'de',
  region: 'AT',
  timeZone: 'Europe/Vienna',
  network: null,
};

describe('installer: seeding an installed box through the daemon the composition root hands down', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'cellar-seed-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("makes the owner through the given daemon's first-run setup, answers it as the database has it, and closes that daemon", async () => {
    const built: { url: string; closed: boolean }[] = [];
    // The real createDaemon, watched: seedBox must build, start and close exactly the one it was given.
    const factory: DaemonFactory = async (options) => {
      const daemon = await createDaemon(options);
      const seen = { url: '', closed: false };
      built.push(seen);
      return {
        start: async () => void (await daemon.start(), (seen.url = daemon.url())),
        url: () => daemon.url(),
        close: async () => void (await daemon.close(), (seen.closed = true)),
      };
    };
    const owner = await seedBox(factory, path.join(dir, 'data'), request);
    expect(owner).to.include({ username: 'owner', admin: true });
    expect(owner.uid).to.be.a('number');
    expect(built).to.have.length(1);
    expect(built[0]!.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(built[0]!.closed).to.equal(true);

    // The data stays for the installed box: a daemon on it knows the owner and the box's name.
    const again = await createDaemon({
      config: { mode: 'development', port: 0, dataDir: path.join(dir, 'data'), logToConsole: false, logLevel: 'warn' },
      env: {},
    });
    await again.start();
    try {
      const setup = (await (await fetch(`${again.url()}/api/setup`)).json()) as SetupInfo;
      expect(setup).to.include({ boxName: 'Seeded Box', language: 'de', region: 'AT', setupCode: false });
    } finally {
      await again.close();
    }
  });

  it('refuses with installer.step.failed when the setup is refused, and still closes the daemon it built', async () => {
    let closed = false;
    const factory: DaemonFactory = async (options) => {
      const daemon = await createDaemon(options);
      return { start: () => daemon.start(), url: () => daemon.url(), close: async () => void (await daemon.close(), (closed = true)) };
    };
    const weak = { ...request, admin: { username: 'owner', password: 'short' } };
    const err = await seedBox(factory, path.join(dir, 'data'), weak).then(
      () => null,
      (e: unknown) => e as ProblemError,
    );
    expect(err).to.be.instanceOf(ProblemError);
    expect(err!.code).to.equal('installer.step.failed');
    expect(err!.message).to.match(/^the setup answered 4\d\d/);
    expect(closed).to.equal(true);
  });
});
