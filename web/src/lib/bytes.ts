const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/**
 * Bytes for people, in binary steps named as such ("1.5 GiB", "1,5 GiB" in German), as ZFS
 * and the other storage tools count them; one decimal below 100 of a unit. The one byte
 * formatter of the web: files, storage, homes, logs and problem messages all show sizes alike.
 */
export function formatBytes(bytes: number | null, language: string): string {
  if (bytes === null) return '–';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}
