import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');
const consoleDir = path.join(repo, 'console');
// electron-builder and its helpers are the console's own dependencies (console/node_modules).
const fromConsole = createRequire(path.join(consoleDir, 'package.json'));
const asar = fromConsole('@electron/asar') as { listPackage(file: string, options: object): string[] };
const fuses = fromConsole('@electron/fuses') as { getCurrentFuseWire(file: string): Promise<Record<string, unknown>> };
const config = JSON.parse(readFileSync(path.join(repo, 'build/console/electron-builder.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const consolePackage = JSON.parse(readFileSync(path.join(consoleDir, 'package.json'), 'utf8')) as Record<string, unknown>;
const electronVersion = (fromConsole('electron/package.json') as { version: string }).version;

/** @electron/fuses' wire: a sentinel, the wire's version (1), its length, then one byte per fuse ('0' off, '1' on). */
const sentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's own defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on,
// ASAR integrity off, only-ASAR off, browser V8 snapshot off, file: extra privileges on.
const electronDefaults = '10110001';
const [runAsNode, cookieEncryption, nodeOptions, inspect, asarIntegrity, onlyAsar, , fileExtraPrivileges] = [0, 1, 2, 3, 4, 5, 6, 7];

/**
 * The console packaged as CI can: `node console/build.mjs`, then electron-builder's `dir` target
 * for Linux with a stand-in Electron (no binary can be downloaded here: a script carrying the fuse
 * wire). What is checked is what electron-builder made of the configuration: the asar's files and
 * the fuses it flipped in the executable.
 */
describe('console packaging: build.mjs and electron-builder --linux dir with a stand-in Electron', function () {
  this.timeout(180_000);
  let dir: string;
  let unpacked: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-package-'));
    const standIn = path.join(dir, 'electron-dist');
    mkdirSync(path.join(standIn, 'resources'), { recursive: true });
    writeFileSync(path.join(standIn, 'electron'), `#!/bin/sh\n# a stand-in Electron\n# ${sentinel}\x01\x08${electronDefaults}\n`);
    chmodSync(path.join(standIn, 'electron'), 0o755);
    writeFileSync(path.join(standIn, 'version'), electronVersion);
    execFileSync(process.execPath, [path.join(consoleDir, 'build.mjs')], { cwd: repo, stdio: 'pipe' });
    const out = path.join(dir, 'out');
    const builder = path.join(consoleDir, 'node_modules', 'electron-builder', 'cli.js');
    execFileSync(
      process.execPath,
      [
        builder,
        '--linux',
        'dir',
        '--config',
        path.join(repo, 'build/console/electron-builder.json'),
        '--projectDir',
        consoleDir,
        `-c.electronDist=${standIn}`,
        `-c.electronVersion=${electronVersion}`,
        `-c.directories.output=${out}`,
      ],
      { cwd: consoleDir, stdio: 'pipe', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CI: 'true' } },
    );
    unpacked = path.join(out, 'linux-unpacked');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('packs exactly the built main process, preload and pages into the asar, without source maps or sources', () => {
    const files = asar.listPackage(path.join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((f) => f.replace(/\\/g, '/'));
    expect(files).to.include.members(['/package.json', '/dist/main/main.js', '/dist/preload/preload.cjs', '/dist/renderer/index.html']);
    expect(files.filter((f) => /\.(map|ts|svelte)$/.test(f) || f.startsWith('/src') || f.includes('node_modules'))).to.deep.equal([]);
    expect(
      files
        .filter((f) => f.startsWith('/dist/renderer/assets/'))
        .map((f) => path.extname(f))
        .sort(),
    ).to.deep.equal(['.css', '.js']);
    expect(statSync(path.join(unpacked, 'cellar-console')).isFile()).to.equal(true);
  });

  it('flips the fuses: RunAsNode off, cookie encryption on, ASAR integrity on, only from the ASAR, no extra file: privileges', async () => {
    const wire = await fuses.getCurrentFuseWire(path.join(unpacked, 'cellar-console'));
    const state = (fuse: number) => String.fromCharCode(wire[fuse] as number);
    expect(state(runAsNode)).to.equal('0');
    expect(state(cookieEncryption)).to.equal('1');
    expect(state(nodeOptions)).to.equal('0');
    expect(state(inspect)).to.equal('0');
    expect(state(asarIntegrity)).to.equal('1');
    expect(state(onlyAsar)).to.equal('1');
    expect(state(fileExtraPrivileges)).to.equal('0');
  });

  it("configures the deb with electron-builder's own depends kept, what system trust needs recommended, and the metadata it asks for", () => {
    const fpm = fromConsole('app-builder-lib/out/targets/FpmTarget.js') as { default: { prototype: { getDefaultDepends(target: string): string[] } } };
    const defaults = fpm.default.prototype.getDefaultDepends.call(null, 'deb');
    expect(defaults).to.include('libnotify4');
    expect(config.deb!.depends).to.include.members(defaults);
    expect(config.deb!.recommends).to.deep.equal(['libnss3-tools', 'pkexec']);
    expect(consolePackage.homepage).to.match(/^https:\/\//);
    expect(consolePackage.desktopName).to.equal('cellar-console.desktop');
    expect(config.linux!.icon).to.equal('icons');
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const png = readFileSync(path.join(repo, 'build/console/icons', `${size}x${size}.png`));
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${size}x${size}.png`).to.deep.equal([size, size]);
    }
  });

  it("declares macOS's local network use and the Bonjour services the console browses", async () => {
    const { mdnsServiceTypes } = await import('../../shared/src/mdns.ts');
    const info = (config.mac!.extendInfo ?? {}) as Record<string, unknown>;
    expect(info.NSLocalNetworkUsageDescription)
      .to.be.a('string')
      .and.match(/local network/);
    expect(info.NSBonjourServices).to.deep.equal(Object.values(mdnsServiceTypes).map((type) => `_${type}._tcp`));
  });
});
