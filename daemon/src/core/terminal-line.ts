/** Fields that the line shows in its own places, or that only matter in the journal and the store. */
const placed = new Set(['level', 'message', 'timestamp', 'component', 'source']);
/** A line shows this many fields; the rest are counted (the journal and the store keep all). */
const maxFields = 6;
/** Longer values are cut: a whole generated file or a long list belongs in the store, not on a terminal. */
const maxValue = 60;

const colours: Record<string, string> = { error: '31', warn: '33', info: '32', debug: '90' };
const paint = (code: string, text: string) => `\u001b[${code}m${text}\u001b[0m`;

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const firstLine = text.split('\n', 1)[0]!;
  const cut = firstLine.length > maxValue || firstLine.length < text.length;
  const kept = cut ? `${firstLine.slice(0, maxValue)}…` : firstLine;
  // Quoted when a reader could not tell where the value ends.
  return typeof value === 'string' && /[\s="]/.test(kept) ? JSON.stringify(kept) : kept;
}

function clock(timestamp: unknown): string {
  const at = typeof timestamp === 'string' ? new Date(timestamp) : new Date();
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * One entry as a short human line for a terminal: `HH:MM:SS level component message key=value …`
 * in local time, colours only when asked. The entry comes already redacted (the logger's first format).
 */
export function terminalLine(info: Record<string, unknown>, colour: boolean): string {
  const level = String(info.level);
  const component = typeof info.component === 'string' ? info.component : typeof info.source === 'string' ? info.source : 'daemon';
  const fields = Object.entries(info).filter(([key, value]) => !placed.has(key) && value !== undefined);
  const shown = fields.slice(0, maxFields).map(([key, value]) => `${key}=${short(value)}`);
  if (fields.length > maxFields) shown.push(`+${fields.length - maxFields} more`);
  const padding = ' '.repeat(Math.max(0, 5 - level.length));
  return [
    clock(info.timestamp),
    (colour ? paint(colours[level] ?? '0', level) : level) + padding,
    colour ? paint('36', component) : component,
    String(info.message ?? ''),
    ...shown.map((f) => (colour ? paint('2', f) : f)),
  ].join(' ');
}
