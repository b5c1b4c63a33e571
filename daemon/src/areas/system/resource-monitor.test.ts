import { expect } from 'chai';
import type { ResourceCounters } from '../../host/resource-counters.ts';
import { sampleOf } from './resource-monitor.ts';

const counters = (at: number, busy: number, total: number, eth: number, sdb: number): ResourceCounters => ({
  at,
  cpu: { busy, total },
  memory: { totalBytes: 1000, availableBytes: 400 },
  network: new Map([['eth0', { in: eth, out: eth / 2 }]]),
  blocks: new Map([
    ['sdb', { in: sdb, out: 0 }],
    ['sdc', { in: sdb, out: 0 }],
  ]),
  disks: ['sdb', 'sdc'],
});

describe('resource samples', () => {
  it('turns two readings into rates per second, pools summing their members', () => {
    const s = sampleOf(counters(0, 100, 1000, 0, 0), counters(2000, 400, 1600, 2000, 4096), new Map([['tank', ['sdb', 'sdc']]]), Date.UTC(2026, 10, 22));
    expect(s).to.deep.equal({
      at: '2026-11-22T00:00:00.000Z',
      cpu: 0.5,
      memory: { totalBytes: 1000, usedBytes: 600 },
      network: [{ name: 'eth0', inPerSecond: 1000, outPerSecond: 500 }],
      disks: [
        { name: 'sdb', inPerSecond: 2048, outPerSecond: 0 },
        { name: 'sdc', inPerSecond: 2048, outPerSecond: 0 },
      ],
      pools: [{ name: 'tank', inPerSecond: 4096, outPerSecond: 0 }],
    });
  });

  it('counts a counter that went back as nothing moved', () => {
    const s = sampleOf(counters(0, 100, 1000, 5000, 0), counters(1000, 100, 1000, 10, 0), new Map(), 0);
    expect(s.network[0]).to.deep.include({ inPerSecond: 0 });
    expect(s.cpu).to.equal(0);
  });
});
