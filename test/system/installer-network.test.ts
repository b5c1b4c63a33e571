import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkTestStatus } from '../../shared/src/api/installer/installer.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
const helpers = path.join(import.meta.dirname, '../helpers');

/**
 * The network test applies a configuration and checks gateway, name resolution and the registry.
 * Everything happens in two network namespaces the test makes: the box's, with the card `lan0`
 * and no address, and the gateway's, whose end of the pair answers ping, DNS and HTTP.
 */
describe('installer network test in network namespaces (root)', function () {
  this.timeout(120_000);
  const box = `cellar-inst-box-${process.pid}`;
  const gw = `cellar-inst-gw-${process.pid}`;
  let work: string;
  let gateway: ChildProcess | undefined;

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('the network test makes network namespaces and needs root');
    work = mkdtempSync(path.join(tmpdir(), 'cellar-inst-net-'));
    sh(['ip', 'netns', 'add', box]);
    sh(['ip', 'netns', 'add', gw]);
    sh(['ip', 'link', 'add', 'cinst-lan0', 'netns', box, 'type', 'veth', 'peer', 'name', 'cinst-gw0', 'netns', gw]);
    sh(['ip', '-n', box, 'link', 'set', 'cinst-lan0', 'name', 'lan0']);
    sh(['ip', '-n', box, 'link', 'set', 'lo', 'up']);
    sh(['ip', '-n', gw, 'link', 'set', 'lo', 'up']);
    sh(['ip', '-n', gw, 'addr', 'add', '10.77.0.1/24', 'dev', 'cinst-gw0']);
    sh(['ip', '-n', gw, 'link', 'set', 'cinst-gw0', 'up']);
    gateway = spawn('ip', ['netns', 'exec', gw, process.execPath, '--import=tsx', path.join(helpers, 'net-gateway.ts'), '10.77.0.1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      gateway!.stdout!.once('data', () => resolve());
      gateway!.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
    });
  });
  after(() => {
    gateway?.kill();
    for (const ns of [box, gw])
      try {
        sh(['ip', 'netns', 'del', ns]);
      } catch {
        // Not made: the setup failed before.
      }
    rmSync(work, { recursive: true, force: true });
  });

  const test = (name: string, config: object) =>
    JSON.parse(
      sh([
        'ip',
        'netns',
        'exec',
        box,
        process.execPath,
        '--import=tsx',
        path.join(helpers, 'network-test-probe.ts'),
        path.join(work, name),
        JSON.stringify(config),
        'http://registry.cellar.test/debian/dists/bookworm/InRelease',
      ]),
    ) as { started: NetworkTestStatus; status: NetworkTestStatus };

  it('applies a static configuration and passes gateway, name resolution and the registry', () => {
    const config = { interface: 'lan0', method: 'static', address: '10.77.0.2/24', gateway: '10.77.0.1', nameservers: ['10.77.0.1'] };
    const { started, status } = test('good', config);
    expect(started.state).to.equal('running');
    expect(status.config).to.deep.equal(config);
    expect(status.checks.map((c) => [c.check, c.state])).to.deep.equal([
      ['gateway', 'passed'],
      ['dns', 'passed'],
      ['registry', 'passed'],
    ]);
    expect(status.checks[1]!.detail).to.equal('registry.cellar.test is 10.77.0.1');
    expect(status.checks[2]!.detail).to.match(/answers 200$/);
    expect(status.state).to.equal('passed');
    expect(sh(['ip', '-n', box, '-4', 'addr', 'show', 'dev', 'lan0'])).to.contain('10.77.0.2/24');
  });

  it('fails the checks a wrong configuration breaks, and says why', () => {
    const { status } = test('bad', { interface: 'lan0', method: 'static', address: '10.77.0.3/24', gateway: '10.77.0.9', nameservers: ['10.77.0.8'] });
    expect(status.state).to.equal('failed');
    expect(status.checks.map((c) => [c.check, c.state])).to.deep.equal([
      ['gateway', 'failed'],
      ['dns', 'failed'],
      ['registry', 'skipped'],
    ]);
  });
});
