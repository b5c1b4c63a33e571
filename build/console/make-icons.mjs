// Draws the console's icon set (build/console/icons/<n>x<n>.png, what electron-builder's Linux
// targets install into hicolor; macOS and Windows take the 512 one): a box in a rounded tile.
// Run once after changing the drawing: node build/console/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const sizes = [16, 32, 48, 64, 128, 256, 512];
const tile = [37, 99, 235];
const white = [255, 255, 255];

/** The colour at a point of the unit square, or null for transparent. */
function paint(x, y) {
  const r = 0.18;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  const inBox = x > 0.24 && x < 0.76 && y > 0.3 && y < 0.76;
  const lid = x > 0.2 && x < 0.8 && y > 0.24 && y < 0.38;
  const slot = x > 0.42 && x < 0.58 && y > 0.46 && y < 0.52;
  return (inBox || lid) && !slot ? white : tile;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA PNG of n x n, each pixel averaged over 4 x 4 samples (smooth edges). */
function png(n) {
  const rows = [];
  for (let py = 0; py < n; py++) {
    const row = Buffer.alloc(1 + n * 4);
    for (let px = 0; px < n; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const colour = paint((px + (sx + 0.5) / 4) / n, (py + (sy + 0.5) / 4) / n);
          if (!colour) continue;
          for (let i = 0; i < 3; i++) sum[i] += colour[i];
          sum[3] += 1;
        }
      const o = 1 + px * 4;
      for (let i = 0; i < 3; i++) row[o + i] = sum[3] ? Math.round(sum[i] / sum[3]) : 0;
      row[o + 3] = Math.round((sum[3] / 16) * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(n, 0);
  header.writeUInt32BE(n, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.join(import.meta.dirname, 'icons');
mkdirSync(out, { recursive: true });
for (const n of sizes) writeFileSync(path.join(out, `${n}x${n}.png`), png(n));
