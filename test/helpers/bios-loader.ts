import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const grubDir = '/usr/lib/grub/i386-pc';

function head(device: string, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  const fd = openSync(device, 'r');
  try {
    readSync(fd, buffer, 0, bytes, 0);
  } finally {
    closeSync(fd);
  }
  return buffer;
}

/** Bytes of `a` and `b` that differ, outside the fields grub-bios-setup fills in. */
function differing(a: Buffer, b: Buffer, filled: [number, number][]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i] && !filled.some(([from, to]) => i >= from && i < to)) out.push(i);
  return out;
}

/**
 * GRUB's BIOS loader as grub-install --target=i386-pc leaves it: the disk's first sector is GRUB's
 * boot.img (its code, its "GRUB " message, the boot signature) with the GPT's protective table
 * kept, and it points at the first sector of the BIOS boot partition, which holds the core.img
 * that grub-install left in the target's /boot/grub/i386-pc.
 */
export function expectBiosLoader(disk: string, biosPartition: string, root: string): void {
  const mbr = head(disk, 512);
  const bootImg = readFileSync(path.join(grubDir, 'boot.img'));
  expect(mbr.subarray(510).toString('hex')).to.equal('55aa');
  expect(mbr.subarray(0, 440).toString('latin1')).to.contain('GRUB \0Geom\0Hard Disk\0Read\0 Error');
  // The kernel sector (0x5c, 8 bytes), the boot drive (0x64) and the drive check (0x66) are filled in.
  expect(differing(mbr.subarray(0, 440), bootImg, [[0x5c, 0x68]])).to.deep.equal([]);
  const start = Number(readFileSync(`/sys/class/block/${path.basename(biosPartition)}/start`, 'utf8'));
  expect(Number(mbr.readBigUInt64LE(0x5c))).to.equal(start);

  const coreImg = readFileSync(path.join(root, 'boot/grub/i386-pc/core.img'));
  const embedded = head(biosPartition, coreImg.length);
  // diskboot's block list (the end of the first sector) and the Reed-Solomon fields of the second are filled in.
  expect(
    differing(embedded, coreImg, [
      [0x1f4, 0x200],
      [0x210, 0x218],
    ]),
  ).to.deep.equal([]);
  expect(embedded.subarray(0, 0x1f4).equals(readFileSync(path.join(grubDir, 'diskboot.img')).subarray(0, 0x1f4))).to.equal(true);
}
