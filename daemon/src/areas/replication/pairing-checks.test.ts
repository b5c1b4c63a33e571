import type { LookupFunction } from 'node:net';
import { expect } from 'chai';
import { ProblemError } from '../../core/problem-error.ts';
import { parentRefusal } from './parent-check.ts';
import { normalFingerprint, PinnedTarget } from './pinned-target.ts';
import { formatTargetAddress, parseTargetAddress } from './target-address.ts';

describe('replication pairing: parent dataset, target address, fingerprint', () => {
  const datasets = ['tank', 'tank/replica', 'tank/replica/old', 'tank/homes', 'tank/homes/anna', 'tank/apps', 'tank/data', 'tank/data/photos', 'tank/media'];
  const shares = ['tank/data/photos', 'tank/media'];

  it('takes an existing dataset below a pool that is no share, home or app, and holds none', () => {
    expect(parentRefusal('tank/replica', datasets, shares)).to.equal(null);
    expect(parentRefusal('tank/replica/old', datasets, shares)).to.equal(null);
  });

  for (const [parent, reason] of [
    ['tank/none', 'missing'],
    ['tank/replica/../x', 'missing'],
    ['tank', 'pool-root'],
    ['tank/homes', 'home'],
    ['tank/homes/anna', 'home'],
    ['tank/apps', 'app'],
    ['tank/media', 'share'],
    ['tank/data', 'share'],
    ['tank/data/photos', 'share'],
  ] as const) {
    it(`refuses ${parent}: ${reason}`, () => expect(parentRefusal(parent, datasets, shares)).to.equal(reason));
  }

  it('reads host[:port] and [ipv6][:port], default port 443', () => {
    expect(parseTargetAddress('box.example.org')).to.deep.equal({ host: 'box.example.org', port: 443 });
    expect(parseTargetAddress(' 192.0.2.7:8443 ')).to.deep.equal({ host: '192.0.2.7', port: 8443 });
    expect(parseTargetAddress('[fd00::1]:7484')).to.deep.equal({ host: 'fd00::1', port: 7484 });
    expect(formatTargetAddress({ host: 'fd00::1', port: 7484 })).to.equal('[fd00::1]:7484');
    expect(formatTargetAddress({ host: 'box', port: 443 })).to.equal('box');
  });

  for (const bad of ['', 'https://box', 'user@box', 'box/path', 'box:0', 'box:70000', 'fd00::1', '[box]:1', 'bo x', '-box', 'box:', 'a..b']) {
    it(`refuses the address ${JSON.stringify(bad)}`, () => expect(parseTargetAddress(bad)).to.equal(null));
  }

  it('writes a fingerprint as colon-separated upper-case hex however it was typed', () => {
    expect(normalFingerprint('ab12cd')).to.equal('AB:12:CD');
    expect(normalFingerprint('AB:12:cd')).to.equal('AB:12:CD');
    expect(normalFingerprint('ab 12 cd')).to.equal('AB:12:CD');
  });
});

describe('replication pairing: the target name resolved by the given resolver', () => {
  it('asks the lookup it was given for the typed name and answers replication.target.unreachable when it finds none', async () => {
    const asked: string[] = [];
    const lookup: LookupFunction = (hostname, _options, callback) => {
      asked.push(hostname);
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    };
    const target = new PinnedTarget({ host: 'other-box.example', port: 443 }, lookup);
    const refusal = await target.root('AA:BB').then(
      () => null,
      (err: unknown) => err,
    );
    expect(refusal).to.be.instanceOf(ProblemError);
    expect((refusal as ProblemError).code).to.equal('replication.target.unreachable');
    expect(asked).to.deep.equal(['other-box.example']);
  });
});
