import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseLsblk, parseWipefs } from './lsblk.ts';
import { parseZfsSize } from './sizes.ts';
import { parseSmartctl } from './smartctl.ts';
import { numberProp, parseZfsGet } from './zfs-get.ts';
import { parseZpoolList } from './zpool-list.ts';
import { leafNames, parseZpoolStatus } from './zpool-status.ts';

const fixturesDir = path.join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures');
const zfsFixture = (name: string) => readFileSync(path.join(fixturesDir, 'zfs', name), 'utf8');
const smartFixture = (name: string) => readFileSync(path.join(fixturesDir, 'smartctl', name), 'utf8');

// Every fixture is recorded output, never written by hand; test/fixtures/zfs/README.md and
// test/fixtures/smartctl/README.md name the source of each. zfs-fuse-* were captured on this
// machine; the OpenZFS ones (the box runs OpenZFS, which cannot run here) are copied from
// OpenZFS's documentation (openzfs/openzfs-docs message pages, openzfs/zfs man pages); the
// smartctl ones are real drives' outputs recorded by the Scrutiny project, and one captured here.
describe('zfs parsers', () => {
  describe('zpool status', () => {
    it('reads a zfs-fuse mirror pool with its vdev tree', () => {
      const [pool] = parseZpoolStatus(zfsFixture('zfs-fuse-zpool-status.txt'));
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
      const [pool] = parseZpoolStatus(zfsFixture('zfs-fuse-zpool-status-scrubbed.txt'));
      expect(pool?.scan).to.include({ function: 'scrub', state: 'finished', errors: 0, percent: 100 });
    });

    it('reads the documented OpenZFS status of a mirror with checksum errors (ZFS-8000-9P)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('openzfs-docs-8000-9P-status.txt'));
      expect(pool).to.include({ name: 'test', state: 'ONLINE', errors: 'No known data errors' });
      expect(pool?.status).to.equal(
        'One or more devices has experienced an unrecoverable error.  An\nattempt was made to correct the error.  Applications are unaffected.',
      );
      expect(pool?.scan).to.include({ state: 'none', function: null });
      const mirror = pool?.groups[0]?.vdevs[0];
      expect(mirror).to.include({ name: 'mirror', type: 'mirror', state: 'ONLINE' });
      expect(mirror?.children.map((c) => [c.name, c.checksumErrors])).to.deep.equal([
        ['c0t0d0', 2],
        ['c0t0d1', 0],
      ]);
    });

    it('reads the documented resilver in progress with a replacing vdev and its note (ZFS-8000-9P)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('openzfs-docs-8000-9P-resilver.txt'));
      expect(pool?.state).to.equal('DEGRADED');
      expect(pool?.scan).to.include({ function: 'resilver', state: 'scanning', percent: 0.14 });
      const mirror = pool?.groups[0]?.vdevs[0];
      const replacing = mirror?.children[0];
      expect(replacing).to.include({ name: 'replacing', type: 'replacing' });
      expect(replacing?.children.map((c) => [c.name, c.checksumErrors, c.note])).to.deep.equal([
        ['c0t0d0', 3, null],
        ['c0t0d2', 0, '58.5K resilvered'],
      ]);
      expect(leafNames(pool!)).to.deep.equal(['c0t0d0', 'c0t0d2', 'c0t0d1']);
    });

    it('reads the documented degraded pool with a faulted disk that cannot be opened (ZFS-8000-2Q)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('openzfs-docs-8000-2Q-status.txt'));
      expect(pool).to.include({ state: 'DEGRADED', action: "Attach the missing device and online it using 'zpool online'." });
      expect(pool?.groups[0]?.vdevs[0]?.children[1]).to.include({ name: 'sdb', state: 'FAULTED', readErrors: 0, note: 'cannot open' });
    });

    it('reads the documented import scan of a degraded pool (ZFS-8000-2Q)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('openzfs-docs-8000-2Q-import.txt'));
      expect(pool).to.include({ name: 'test', id: '10121266328238932306', state: 'DEGRADED' });
      expect(pool?.action).to.match(/^The pool can be imported despite missing or damaged devices/);
      const mirror = pool?.groups[0]?.vdevs[0];
      expect(mirror?.children.map((c) => [c.name, c.state, c.note])).to.deep.equal([
        ['sda', 'ONLINE', null],
        ['sdb', 'FAULTED', 'cannot open'],
      ]);
    });

    it('reads an import scan (zfs-fuse) with the pool id and layout', () => {
      const [pool] = parseZpoolStatus(zfsFixture('zfs-fuse-zpool-import-scan.txt'));
      expect(pool).to.include({ name: 'capool', id: '12678348153037179190', state: 'ONLINE' });
      expect(leafNames(pool!)).to.deep.equal(['loop0', 'loop1']);
      expect(pool?.groups[0]?.vdevs[0]?.type).to.equal('mirror');
    });

    it('reads a scrub in progress (zfs-fuse, captured here)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('zfs-fuse-zpool-status-scrub-running.txt'));
      expect(pool?.scan).to.include({
        function: 'scrub',
        state: 'scanning',
        percent: 5.94,
        errors: null,
        text: 'scrub in progress for 0h0m, 5.94% done, 0h0m to go',
      });
    });

    it('reads a finished scrub that found errors (zfs-fuse, captured here)', () => {
      const [pool] = parseZpoolStatus(zfsFixture('zfs-fuse-zpool-status-scrub-errors.txt'));
      expect(pool?.scan).to.include({ function: 'scrub', state: 'finished', percent: 100, errors: 37 });
      expect(pool?.errors).to.equal("36 data errors, use '-v' for a list");
    });

    it("reads OpenZFS 2.x's multi-line scan block of a resilver in progress (dRAID howto)", () => {
      const [pool] = parseZpoolStatus(zfsFixture('openzfs-docs-draid-resilver.txt'));
      expect(pool?.scan).to.include({ function: 'resilver', state: 'scanning', percent: 57.17 });
      expect(pool?.scan.text.split('\n')).to.have.length(3);
      expect(pool?.groups.map((g) => g.role)).to.deep.equal(['data', 'spares']);
    });
  });

  describe('zpool list', () => {
    it('reads the tab-separated zfs-fuse list (rounded sizes: zfs-fuse has no -p)', () => {
      const [capool] = parseZpoolList(zfsFixture('zfs-fuse-zpool-list.txt'));
      expect(capool).to.deep.equal({
        name: 'capool',
        sizeBytes: 123 * 1024 * 1024,
        allocatedBytes: Math.round(1.08 * 1024 * 1024),
        freeBytes: 122 * 1024 * 1024,
        health: 'ONLINE',
        guid: '12678348153037179190',
      });
    });

    it("reads the sizes zpool-list(8)'s example prints, and '-' for a faulted pool", () => {
      const rows = zfsFixture('openzfs-zpool-list-8-example-1.txt')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/));
      expect(rows.map((r) => [r[0], parseZfsSize(r[1]!), parseZfsSize(r[2]!), parseZfsSize(r[3]!)])).to.deep.equal([
        ['rpool', Math.round(19.9 * 1024 ** 3), Math.round(8.43 * 1024 ** 3), Math.round(11.4 * 1024 ** 3)],
        ['tank', Math.round(61.5 * 1024 ** 3), Math.round(20.0 * 1024 ** 3), Math.round(41.5 * 1024 ** 3)],
        ['zion', null, null, null],
      ]);
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
      const objects = parseZfsGet(zfsFixture('zfs-fuse-zfs-get.txt'));
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
    it('reads loop devices as lsblk 2.38 lists them here: a mounted one, a zfs-fuse member, a blank one', () => {
      const devices = parseLsblk(zfsFixture('lsblk-2.38-loop-devices.json'));
      expect(devices.map((d) => [d.name, d.path, d.type, d.sizeBytes, d.mountpoints])).to.deep.equal([
        ['loop0', '/dev/loop0', 'loop', 268435456, ['/tmp/cellarcap12008/mnt']],
        ['loop1', '/dev/loop1', 'loop', 268435456, []],
        ['loop2', '/dev/loop2', 'loop', 268435456, []],
      ]);
      expect(devices[0]).to.include({ readOnly: false, removable: false, rotational: true, model: null, serial: null, fsType: null, parent: null });
      expect(devices[0]?.children).to.deep.equal([]);
    });

    it('lists signature types once (wipefs 2.38, captured here)', () => {
      expect(parseWipefs(zfsFixture('wipefs-2.38-zfs-member.json'))).to.deep.equal(['zfs_member']);
      expect(parseWipefs(zfsFixture('wipefs-2.38-blank.json'))).to.deep.equal([]);
      // wipefs prints nothing at all when it fails to read the device.
      expect(parseWipefs('')).to.deep.equal([]);
    });
  });

  describe('smartctl --json', () => {
    it('reads a healthy ATA SSD', () => {
      const s = parseSmartctl('/dev/sda', smartFixture('scrutiny-smart-ata-failed-scrutiny.excerpt.json'));
      expect(s).to.include({
        available: true,
        health: 'passed',
        model: 'Samsung SSD 840 Series',
        serial: 'S14LNEACC02756X',
        temperatureC: 33,
        powerOnHours: 19497,
        reallocatedSectors: 0,
        pendingSectors: null,
        lastSelfTest: null,
      });
    });

    it('reads a failing ATA disk: SMART status failed, exit status bit 3, reallocated and pending sectors', () => {
      const s = parseSmartctl('/dev/sdc', smartFixture('scrutiny-smart-fail2.excerpt.json'));
      expect(s).to.include({ available: true, health: 'failed', temperatureC: 25, powerOnHours: 65592, reallocatedSectors: 1975, pendingSectors: 8 });
    });

    it('reads an NVMe disk with its media errors', () => {
      const s = parseSmartctl('/dev/nvme0', smartFixture('scrutiny-smart-nvme-failed.json'));
      expect(s).to.include({ available: true, health: 'passed', temperatureC: 35, powerOnHours: 12798, reallocatedSectors: null, mediaErrors: 7 });
    });

    it('reads a device smartctl could not open', () => {
      const s = parseSmartctl('/dev/sda', smartFixture('scrutiny-smart-fail.json'));
      expect(s).to.include({ available: false, health: 'unknown' });
      expect(s.message).to.match(/^Smartctl open device: \/dev\/sda failed/);
    });

    it('reads a virtual disk without SMART (captured here)', () => {
      const s = parseSmartctl('/dev/vda', smartFixture('smartctl-7.3-virtual-disk-captured-here.json'));
      expect(s).to.include({ available: false, health: 'unknown', message: '/dev/vda: Unable to detect device type' });
    });
  });
});
