const units: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4, P: 1024 ** 5, E: 1024 ** 6 };

/**
 * Bytes of a ZFS size as printed without `-p` ("123M", "90.5G", "0", "544K", "1.50T").
 * Only for zfs-fuse's `zpool list`, which cannot print exact bytes: the answer is as exact as the print.
 * Answers null for "-" and "none".
 */
export function parseZfsSize(text: string): number | null {
  const value = text.trim();
  if (value === '-' || value === 'none' || value === '') return null;
  const match = /^(\d+(?:\.\d+)?)([BKMGTPE])?i?B?$/i.exec(value);
  if (!match) return null;
  const unit = (match[2] ?? 'B').toUpperCase();
  return Math.round(Number(match[1]) * (units[unit] ?? 1));
}

/** A ZFS count such as an error counter ("0", "12", "1.2K"). */
export function parseZfsCount(text: string): number {
  return parseZfsSize(text) ?? 0;
}
