import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A real daemon process (run-daemon.ts, as main.ts runs it): an unhandled rejection is logged and
// the daemon runs on, where Node's default would have exited it.
describe('the daemon process and a rejection nobody caught', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cellar-rejection-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('logs it and keeps running, then stops normally on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import=tsx', 'test/helpers/rejecting-daemon-child.ts'], {
      env: {
        PATH: process.env.PATH,
        BOX_MODE: 'development',
        BOX_PORT: '0',
        BOX_HOST: '127.0.0.1',
        BOX_DATA_DIR: dataDir,
        BOX_ADMIN_PASSWORD: 'a test password',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(output).to.include('unhandled rejection');
    expect(output).to.include('a bug nobody caught');
    expect(output).to.include('still running after the rejection');
    expect(code, output).to.equal(0);
  });
});
