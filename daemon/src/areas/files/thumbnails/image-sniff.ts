/** The image formats the box renders thumbnails of. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** Bytes the signatures below need. */
export const sniffBytes = 12;

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  return head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * The format of a file by its first bytes, never by its name: a text file called
 * photo.jpg is not an image, and an SVG or TIFF renamed to .png never reaches the decoder.
 */
export function sniffImage(head: Uint8Array): ImageFormat | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, png)) return 'png';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  return null;
}
