import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../bench/lib/free-port.ts';
// @ts-expect-error: a plain JavaScript build script without type declarations
import * as script from './bundle-daemon.js';

const { bundleDaemon, bundlePath, nodeFlags } = script as { bundleDaemon(): Promise<void>; bundlePath: string; nodeFlags: string[] };
const repo = path.resolve(import.meta.dirname, '../..');

/** The bundled daemon is what `npm start` and a box run; the rest of the suite runs the sources. */
describe('bundled daemon (npm start)', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  let dataDir: string;
  let base: string;
  let stderr = '';

  before(async () => {
    await bundleDaemon();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cellar-bundle-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [...nodeFlags, bundlePath], {
      env: { ...process.env, BOX_PORT: String(port), BOX_DATA_DIR: dataDir, BOX_ADMIN_PASSWORD: 'bundle test password', BOX_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (const deadline = Date.now() + 30_000; ;) {
      if (child.exitCode !== null) throw new Error(`the bundled daemon exited with ${child.exitCode}: ${stderr}`);
      if ((await fetch(`${base}/api/health`).catch(() => null))?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`the bundled daemon did not answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  after(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates a new data directory, serves the web desktop and signs the administrator in', async () => {
    const setup = (await (await fetch(`${base}/api/setup`)).json()) as { product: string };
    expect(setup.product).to.equal('Cellar');
    const page = await fetch(`${base}/`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('<div id="app"');
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bundle test password' }),
    });
    expect(login.status).to.equal(200);
  });

  it('loads the lazily imported parts (OpenAPI generator, docs assets) from their chunks', async () => {
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).to.match(/^3\.1/);
    expect(Object.keys(doc.paths)).to.include('/api/health');
    const css = await fetch(`${base}/api/docs/assets/docs.css`);
    expect(css.status).to.equal(200);
  });

  it('ships the replication forced command beside main.js for sshd, and it refuses what is not receive or list', () => {
    const command = path.join(path.dirname(bundlePath), 'receive-command.js');
    const env = { ...process.env, SSH_ORIGINAL_COMMAND: 'id' };
    const ran = spawnSync(process.execPath, [command, 'pairing-1', 'tank/replica'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(ran.stderr).to.contain('cellar: refused: ');
    expect(ran.status).to.equal(2);
  });

  it('runs with the same Node options under systemd and npm start', () => {
    const unit = readFileSync(path.join(repo, 'build/debian/cellar.service'), 'utf8');
    const start = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(/^ExecStart=(.*)$/m.exec(unit)?.[1]).to.equal(['/usr/lib/cellar/node/bin/node', ...nodeFlags, '/usr/lib/cellar/daemon/dist/main.js'].join(' '));
    expect(start).to.match(new RegExp(`&& ${['node', ...nodeFlags, 'daemon/dist/main.js'].join(' ')}$`));
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(stderr).to.equal('');
  });
});
