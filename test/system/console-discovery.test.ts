import { expect } from 'chai';
import type { ListedBox } from '../../console/src/bridge.ts';
import { mdnsTxt } from '../../shared/src/mdns.ts';
import type { DaemonDiscoveryRun } from '../helpers/console-daemon-discovery-run.ts';
import { makeMdnsNamespace, runInNamespace } from '../helpers/mdns-namespace.ts';

interface Run {
  elapsedMs: number | null;
  boxes: ListedBox[];
  afterGoodbye: ListedBox[] | null;
}

describe('console discovery: mDNS on a namespace loopback merged with known boxes', function () {
  this.timeout(60_000);
  let ns: ReturnType<typeof makeMdnsNamespace>;
  before(() => (ns = makeMdnsNamespace()));
  after(() => ns.remove());

  it('lists an installed and an installer box, merges a known box by install id and keeps an unannounced one', async () => {
    const run = await runInNamespace<Run>(ns.name, 'test/helpers/console-discovery-run.ts', {
      announce: [
        { name: 'attic', type: 'cellar', port: 7484, txt: mdnsTxt({ installId: 'id-attic', version: '0.1.0', scheme: 'https' }) },
        { name: 'newbox', type: 'cellar-installer', port: 7485, txt: mdnsTxt({ installId: null, version: '0.1.0', scheme: 'http' }) },
      ],
      known: [{ url: 'https://attic.example:7484', installId: 'id-attic' }, { url: '192.168.77.9' }],
      expect: 2,
      goodbye: 'newbox',
    });
    expect(run.elapsedMs, JSON.stringify(run.boxes)).to.be.a('number');
    const byName = new Map(run.boxes.map((b) => [b.name, b]));
    expect(run.boxes).to.have.length(3);
    expect(byName.get('attic')).to.deep.include({ mode: 'installed', known: true, announced: true, url: 'https://attic.example:7484', version: '0.1.0' });
    expect(byName.get('newbox')).to.deep.include({ mode: 'installer', known: false, announced: true, url: 'http://127.0.0.1:7485' });
    expect(byName.get('newbox')!.id).to.match(/^mdns:/);
    expect(byName.get('192.168.77.9')).to.deep.include({ mode: 'unknown', known: true, announced: false, url: 'https://192.168.77.9:7484' });
    expect(run.afterGoodbye!.map((b) => b.name).sort()).to.deep.equal(['192.168.77.9', 'attic']);
  });

  it('merges a known box by its address and port when the box announces no install id', async () => {
    const run = await runInNamespace<Run>(ns.name, 'test/helpers/console-discovery-run.ts', {
      announce: [{ name: 'cellar', type: 'cellar', port: 7484, txt: {} }],
      known: [{ url: 'https://127.0.0.1:7484' }],
      expect: 1,
    });
    expect(run.boxes).to.have.length(1);
    expect(run.boxes[0]).to.deep.include({ name: 'cellar', known: true, announced: true, mode: 'installed' });
  });

  it("finds real daemons' announcements (installed and installation medium), matches each to a known box by install id, and follows a trusted box to its new address", async () => {
    const run = await runInNamespace<DaemonDiscoveryRun>(ns.name, 'test/helpers/console-daemon-discovery-run.ts', {}, 50_000);
    expect(run.elapsedMs, JSON.stringify(run.boxes)).to.be.a('number');
    // The known box shows once: matched by install id although it was known at another address, then moved there.
    const installed = run.boxes.filter((b) => b.mode === 'installed' || b.name === 'attic');
    expect(installed, JSON.stringify(run.boxes)).to.have.length(1);
    expect(installed[0]).to.deep.include({ name: installed[0]!.name, known: true, announced: true, url: run.boxUrl });
    expect(installed[0]!.name).to.match(/^Cellar /);
    expect(run.stored.find((b) => b.installId === run.installId)?.url).to.equal(run.boxUrl);
    // The medium's announcement carries its id: known by it at another address, it is that box, in installer mode.
    expect(run.mediumId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const waiting = run.withMedium.filter((b) => b.mode === 'installer' || b.name === 'newbox');
    expect(waiting, JSON.stringify(run.withMedium)).to.have.length(1);
    expect(waiting[0]).to.deep.include({ known: true, announced: true, mode: 'installer', url: 'https://127.0.0.3:7484' });
    // A box added by address asked for its install id.
    expect(run.added).to.deep.include({ url: run.boxUrl, installId: run.installId });
  });
});
