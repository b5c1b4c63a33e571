import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BoxStore, normaliseBoxUrl } from './box-store.ts';
import { ConsoleError } from './console-error.ts';

describe('console box store', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'cellar-boxes-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps boxes, pins and warnings across restarts in a file only the user reads', () => {
    const file = path.join(dir, 'sub', 'boxes.json');
    const store = new BoxStore(file);
    const box = store.add({ url: 'cellar.home.arpa', name: 'Attic' });
    expect(store.add({ url: 'https://cellar.home.arpa:7484/' }).id).to.equal(box.id);
    store.pin(box.id, { pem: 'PEM', sha256: 'AA:BB' });
    store.warn(box.id, 'CC:DD');
    const again = new BoxStore(file).get(box.id);
    expect(again).to.deep.include({ name: 'Attic', url: 'https://cellar.home.arpa:7484' });
    expect(again.pin).to.deep.include({ sha256: 'AA:BB' });
    expect(again.warning).to.deep.include({ kind: 'rootChanged', fingerprint: 'CC:DD' });
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    // Trusting again clears the warning; forgetting removes the box.
    store.pin(box.id, { pem: 'PEM2', sha256: 'CC:DD' });
    expect(store.get(box.id).warning).to.equal(null);
    store.forget(box.id);
    expect(JSON.parse(readFileSync(file, 'utf8')).boxes).to.deep.equal([]);
  });

  it('accepts origins only and refuses everything else with a code', () => {
    expect(normaliseBoxUrl('http://10.0.0.5:8080')).to.equal('http://10.0.0.5:8080');
    expect(normaliseBoxUrl('[fd00::5]')).to.equal('https://[fd00::5]:7484');
    for (const bad of ['', 'ftp://box', 'https://user:pw@box', 'https://box/path', 'https://box?x=1', 'javascript:alert(1)', 'http://'])
      expect(() => normaliseBoxUrl(bad), bad)
        .to.throw(ConsoleError)
        .with.property('code', 'console.address.invalid');
    expect(() => new BoxStore(path.join(dir, 'b.json')).get('nope'))
      .to.throw(ConsoleError)
      .with.property('code', 'console.box.not_found');
  });
});
