const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes for people: 1 decimal below 10 of a unit, none above (1000-based, as disks are sold). */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function formatTime(iso: string, language: string): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(language, format);
  }
  return format.format(new Date(iso));
}

/** Whether a file's name suggests a picture: only these are asked for thumbnails (the daemon still checks the content). */
export function looksLikeImage(name: string): boolean {
  return /\.(jpe?g|png|webp|gif)$/i.test(name);
}
