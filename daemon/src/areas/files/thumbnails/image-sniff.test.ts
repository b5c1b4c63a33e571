import { expect } from 'chai';
import { sniffImage } from './image-sniff.ts';

describe('sniffImage', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

  it('recognises JPEG, PNG, GIF and WebP by their signatures', () => {
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).to.equal('jpeg');
    expect(sniffImage(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]))).to.equal('png');
    expect(sniffImage(bytes('GIF89a', [1, 0, 1, 0]))).to.equal('gif');
    expect(sniffImage(bytes('GIF87a'))).to.equal('gif');
    expect(sniffImage(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).to.equal('webp');
  });

  it('refuses everything else, whatever it is called', () => {
    expect(sniffImage(bytes('just some text in photo.jpg'))).to.equal(null);
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).to.equal(null);
    expect(sniffImage(bytes('II*\0'))).to.equal(null); // TIFF
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).to.equal(null);
    expect(sniffImage(bytes([0xff, 0xd8]))).to.equal(null); // too short to be sure
    expect(sniffImage(new Uint8Array())).to.equal(null);
  });
});
