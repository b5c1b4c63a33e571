import { expect } from 'chai';
import { parseCpu, parseDiskstats, parseMeminfo, parseNetDev, readCounters } from './resource-counters.ts';

// Recorded from a Debian 12 box (kernel 6.1), trimmed.
const stat = 'cpu  4705 150 1120 16250 520 0 80 0 0 0\ncpu0 2300 75 560 8100 260 0 40 0 0 0\n';
const meminfo = 'MemTotal:        8052132 kB\nMemFree:          512340 kB\nMemAvailable:    6021440 kB\n';
const netDev = [
  'Inter-|   Receive                                                |  Transmit',
  ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
  '    lo: 9000 100 0 0 0 0 0 0 9000 100 0 0 0 0 0 0',
  '  eth0: 123456789 90000 0 0 0 0 0 12 98765432 70000 0 0 0 0 0 0',
].join('\n');
const diskstats = [
  '   8       0 sda 2000 10 409600 900 3000 20 819200 1500 0 2000 2400',
  '   8       1 sda1 1900 10 409000 880 2990 20 819000 1490 0 1990 2370',
].join('\n');

describe('resource counters', () => {
  it('reads busy and total jiffies; idle and iowait are not busy', () => {
    expect(parseCpu(stat)).to.deep.equal({ busy: 4705 + 150 + 1120 + 80, total: 4705 + 150 + 1120 + 16250 + 520 + 80 });
  });

  it('reads memory in bytes, network without loopback, disks in bytes of 512-byte sectors', () => {
    expect(parseMeminfo(meminfo)).to.deep.equal({ totalBytes: 8052132 * 1024, availableBytes: 6021440 * 1024 });
    expect([...parseNetDev(netDev)]).to.deep.equal([['eth0', { in: 123456789, out: 98765432 }]]);
    expect(parseDiskstats(diskstats).get('sda')).to.deep.equal({ in: 409600 * 512, out: 819200 * 512 });
    expect(parseDiskstats(diskstats).get('sda1')).to.deep.equal({ in: 409000 * 512, out: 819000 * 512 });
  });

  it("reads this machine's /proc", async () => {
    const c = await readCounters();
    expect(c.cpu.total).to.be.above(c.cpu.busy);
    expect(c.memory.totalBytes).to.be.above(c.memory.availableBytes);
    for (const name of c.disks) expect(name).to.not.match(/^(loop|ram)/);
  });
});
