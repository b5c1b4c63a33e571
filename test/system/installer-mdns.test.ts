import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { writeInstallId } from '../../daemon/src/areas/installer/install-id.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
const probe = path.join(import.meta.dirname, '../helpers/mdns-probe.ts');

/**
 * The announcement and a bonjour-service browser meet on loopback only: both run in a network
 * namespace the test makes, whose one interface is its loopback (with multicast switched on).
 */
describe('mDNS announcement on loopback (root: a network namespace)', function () {
  this.timeout(120_000);
  const ns = `cellar-mdns-${process.pid}`;
  let work: string;

  before(() => {
    if (process.getuid?.() !== 0) throw new Error('the mDNS test makes a network namespace and needs root');
    work = mkdtempSync(path.join(tmpdir(), 'cellar-mdns-'));
    sh(['ip', 'netns', 'add', ns]);
    sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up', 'multicast', 'on']);
  });
  after(() => {
    try {
      sh(['ip', 'netns', 'del', ns]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  const run = (type: string, dataDir: string, image = '-') =>
    JSON.parse(sh(['ip', 'netns', 'exec', ns, process.execPath, '--import=tsx', probe, type, dataDir, image])) as {
      name: string;
      type: string;
      txt: Record<string, string>;
      version: string;
    };

  it('announces an installed box as _cellar._tcp with its install id and version', async () => {
    const dataDir = path.join(work, 'box');
    mkdirSync(dataDir);
    const id = { installId: '0b8e4c2a-5d1f-4e7a-9c3b-2a6d8f1e4b70', installedAt: '2026-11-25T20:00:00.000Z' };
    await writeInstallId(dataDir, id);
    const found = run('cellar', dataDir);
    expect(found.type).to.equal('cellar');
    expect(found.name).to.match(/^Cellar /);
    expect(found.txt).to.deep.equal({ id: id.installId, version: found.version, scheme: 'http' });
  });

  it('announces the installation medium as _cellar-installer._tcp with the id the installed box will have', () => {
    const image = path.join(work, 'system.tar');
    writeFileSync(image, '');
    const found = run('cellar-installer', path.join(work, 'medium'), image);
    expect(found.type).to.equal('cellar-installer');
    expect(found.name).to.match(/^Cellar installer /);
    expect(found.txt.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(found.txt.version).to.equal(found.version);
    // The medium serves HTTPS with its own key from the start.
    expect(found.txt.scheme).to.equal('https');
  });
});
