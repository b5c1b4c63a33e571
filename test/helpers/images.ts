import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG decompression bomb: a valid 1-bit grey image of width x height pixels of one colour.
 * Written by hand because encoding 400 MP through sharp would itself need gigabytes; as 1-bit
 * rows of zeros it is 50 MB raw and a few tens of KB compressed, yet declares every pixel.
 */
export function pngBomb(width = 20_000, height = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filter, no interlace
  const raw = Buffer.alloc(height * (1 + Math.ceil(width / 8))); // filter byte 0 and zero pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A photo-like test image: a colour gradient with noise, so encoders have real work to do. */
export function photo(width: number, height: number, seed = 1): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const noise = state % 32;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width + noise) & 0xff;
      pixels[i + 1] = ((y * 255) / height + noise) & 0xff;
      pixels[i + 2] = (((x + y) * 127) / (width + height) + seed * 40) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}
