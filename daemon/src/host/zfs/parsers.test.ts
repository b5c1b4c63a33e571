import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseLsblk, parseWipefs } from './lsblk.ts';
import { parseZfsSize } from './sizes.ts';
import { parseSmartctl } from './smartctl.ts';
import { numberProp, parseZfsGet } from './zfs-get.ts';
import { parseZpoolList } from './zpool-list.ts';
import { leafNames, parseScan, parseZpoolStatus } from './zpool-status.ts';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

// zfs-fuse-* fixtures were captured on this machine from Debian's zfs-fuse (pool version 23) on loop devices.
// openzfs-* fixtures follow the output documented in OpenZFS 2.x's zpool-status(8) and zpool-list(8) man pages
// (the box runs OpenZFS, which cannot run here). smartctl-ata-* follow smartmontools 7.x's documented
// `--json` output for ATA disks; smartctl-virtual-disk.json was captured here (virtual disks have no SMART).
describe('zfs parsers', () => {
  describe('zpool status', () => {
    it('reads a zfs-fuse mirror pool with its vdev tree', () => {
      const [pool] = parseZpoolStatus(fixture('zfs-fuse-zpool-status.txt'));
      expect(pool).to.include({ name: 'capool', state: 'ONLINE' });
      // Captured after an offline/online of loop1, so the last scan is a resilver.
      expect(pool?.scan).to.include({ state: 'finished', function: 'resilver', errors: 0 });
      expect(pool?.groups).to.have.length(1);
      const mirror = pool?.groups[0]?.vdevs[0];
      expect(mirror).to.include({ name: 'mirror-0', type: 'mirror', state: 'ONLINE' });
      expect(mirror?.children.map((c) => [c.name, c.type])).to.deep.equal([
        ['loop0', 'disk'],
        ['loop1', 'disk'],
      ]);
      expect(leafNames(pool!)).to.deep.equal(['loop0', 'loop1']);
    });

    it('reads a finished zfs-fuse scrub', () => {
      const [pool] = parseZpoolStatus(fixture('zfs-fuse-zpool-status-scrubbed.txt'));
      expect(pool?.scan).to.include({ function: 'scrub', state: 'finished', errors: 0, percent: 100 });
    });

    it('reads OpenZFS pools: raidz2 with an unavailable disk, logs, cache, spares, a running, a paused and a finished scrub', () => {
      const pools = parseZpoolStatus(fixture('openzfs-zpool-status.txt'));
      expect(pools.map((p) => p.name)).to.deep.equal(['tank', 'backup', 'media']);
      const [tank, backup, media] = pools;
      expect(tank?.state).to.equal('DEGRADED');
      expect(tank?.status).to.match(/label is missing or\ninvalid/);
      expect(tank?.scan).to.include({ function: 'scrub', state: 'scanning', percent: 16.87 });
      expect(tank?.groups.map((g) => g.role)).to.deep.equal(['data', 'logs', 'cache', 'spares']);
      const raidz = tank?.groups[0]?.vdevs[0];
      expect(raidz).to.include({ type: 'raidz2', state: 'DEGRADED' });
      expect(raidz?.children).to.have.length(4);
      expect(raidz?.children[1]).to.include({ checksumErrors: 2 });
      expect(raidz?.children[2]).to.include({ state: 'UNAVAIL', note: 'was /dev/disk/by-id/ata-WDC_WD40EFRX_WD-3-part1' });
      expect(tank?.groups[3]?.vdevs[0]).to.include({ name: 'ata-WDC_WD40EFRX_WD-5', state: 'AVAIL' });
      expect(backup?.scan).to.include({ state: 'paused', percent: 25 });
      expect(media?.scan).to.include({ state: 'finished', errors: 3 });
      expect(media?.groups[0]?.vdevs[0]).to.include({ name: 'sdc', type: 'disk' });
    });

    it('reads an import scan (zfs-fuse) with the pool id and layout', () => {
      const [pool] = parseZpoolStatus(fixture('zfs-fuse-zpool-import-scan.txt'));
      expect(pool).to.include({ name: 'capool', id: '12678348153037179190', state: 'ONLINE' });
      expect(leafNames(pool!)).to.deep.equal(['loop0', 'loop1']);
      expect(pool?.groups[0]?.vdevs[0]?.type).to.equal('mirror');
    });

    it('reads scan lines of both tools', () => {
      expect(parseScan('scrub: scrub in progress for 0h1m, 45.23% done, 0h2m to go')).to.include({ state: 'scanning', percent: 45.23 });
      expect(parseScan('scrub canceled on Thu Nov 20 09:58:48 2014')).to.include({ state: 'canceled' });
      expect(parseScan('resilvered 324G in 42h22m with 0 errors on Fri Jun 15 20:11:17 2012')).to.include({ function: 'resilver', state: 'finished' });
    });
  });

  describe('zpool list', () => {
    it('reads exact bytes from OpenZFS -p and rounded sizes from zfs-fuse', () => {
      const [tank] = parseZpoolList(fixture('openzfs-zpool-list-p.txt'));
      expect(tank).to.deep.equal({ name: 'tank', sizeBytes: 11988201472, allocatedBytes: 1363148800, freeBytes: 10625052672, health: 'DEGRADED', guid: '6321245466812321234' });
      const [capool] = parseZpoolList(fixture('zfs-fuse-zpool-list.txt'));
      expect(capool?.sizeBytes).to.equal(123 * 1024 * 1024);
      expect(capool?.health).to.equal('ONLINE');
    });

    it('parses human sizes', () => {
      expect(parseZfsSize('90.5M')).to.equal(Math.round(90.5 * 1024 * 1024));
      expect(parseZfsSize('0')).to.equal(0);
      expect(parseZfsSize('-')).to.equal(null);
      expect(parseZfsSize('1.50T')).to.equal(1.5 * 1024 ** 4);
    });
  });

  describe('zfs get', () => {
    it('groups properties per object and leaves out "-"', () => {
      const objects = parseZfsGet(fixture('zfs-fuse-zfs-get.txt'));
      expect(objects.map((o) => o.name)).to.deep.equal(['capool', 'capool/share1', 'capool/share1@service-manual-20261122T024600Z']);
      const share = objects[1]!;
      expect(numberProp(share, 'quota')).to.equal(52428800);
      expect(share.props.get('mountpoint')).to.equal('/tmp/cap/capool/share1');
      const snap = objects[2]!;
      expect(snap.props.get('type')).to.equal('snapshot');
      expect(numberProp(snap, 'userrefs')).to.equal(1);
      expect(snap.props.get('cellar:kind')).to.equal('manual');
      expect(snap.props.has('mountpoint')).to.equal(false);
    });
  });

  describe('lsblk and wipefs', () => {
    it('flattens disks and partitions with mount points', () => {
      const devices = parseLsblk(
        JSON.stringify({
          blockdevices: [
            { name: 'sda', path: '/dev/sda', type: 'disk', size: 4000787030016, ro: false, rm: false, rota: true, model: 'WDC WD40EFRX ', serial: 'WD-1', tran: 'sata', fstype: null, pttype: 'gpt', mountpoints: [null], children: [{ name: 'sda1', path: '/dev/sda1', type: 'part', size: 4000785104896, fstype: 'ext4', pkname: 'sda', mountpoints: ['/srv'] }] },
            { name: 'loop0', path: '/dev/loop0', type: 'loop', size: 134217728, ro: '0', rm: '0', mountpoints: [null] },
          ],
        }),
      );
      expect(devices.map((d) => d.name)).to.deep.equal(['sda', 'sda1', 'loop0']);
      expect(devices[0]).to.include({ model: 'WDC WD40EFRX', partTableType: 'gpt', rotational: true });
      expect(devices[0]?.children).to.deep.equal(['sda1']);
      expect(devices[1]).to.deep.include({ parent: 'sda', fsType: 'ext4', mountpoints: ['/srv'] });
      expect(devices[2]).to.include({ readOnly: false, sizeBytes: 134217728 });
    });

    it('lists signature types once', () => {
      expect(parseWipefs('{"signatures":[{"type":"zfs_member"},{"type":"zfs_member"},{"type":"gpt"}]}')).to.deep.equal(['zfs_member', 'gpt']);
      expect(parseWipefs('{\n"signatures": [\n\n]\n}')).to.deep.equal([]);
      expect(parseWipefs('')).to.deep.equal([]);
    });
  });

  describe('smartctl --json', () => {
    it('reads a healthy ATA disk', () => {
      const s = parseSmartctl('/dev/sda', fixture('smartctl-ata-passed.json'));
      expect(s).to.include({ available: true, health: 'passed', temperatureC: 34, powerOnHours: 21376, reallocatedSectors: 0, lastSelfTest: 'Completed without error' });
    });
    it('reads a failing disk', () => {
      const s = parseSmartctl('/dev/sdb', fixture('smartctl-ata-failing.json'));
      expect(s).to.include({ health: 'failed', reallocatedSectors: 3208, pendingSectors: 48, lastSelfTest: 'Completed: read failure' });
    });
    it('reads a virtual disk without SMART', () => {
      const s = parseSmartctl('/dev/vda', fixture('smartctl-virtual-disk.json'));
      expect(s).to.include({ available: false, health: 'unknown', message: '/dev/vda: Unable to detect device type' });
    });
  });
});
