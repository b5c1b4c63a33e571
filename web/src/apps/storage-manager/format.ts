import type { Language } from '../../../../shared/src/api/system.ts';

const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary steps with one decimal, in the language's number format ("1.5 GB", "1,5 GB"). */
export function formatBytes(bytes: number | null, language: Language): string {
  if (bytes === null) return '–';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString(language, { maximumFractionDigits: digits })} ${units[unit]}`;
}

export function formatTime(iso: string | null, language: Language): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One argument as a shell would need it written, so the shown line can be pasted as it is. */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command's argument array as one line. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ');
}
