const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary steps with one decimal, in the locale's number format ("1.5 GB", "1,5 GB"; see i18n.locale). */
export function formatBytes(bytes: number | null, locale: string): string {
  if (bytes === null) return '–';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${units[unit]}`;
}

export function formatTime(iso: string | null, locale: string): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One argument as a shell would need it written, so the shown line can be pasted as it is. */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command's argument array as one line. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ');
}
