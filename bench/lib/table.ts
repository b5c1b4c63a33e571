export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The same measure of the baseline in the same run; the ratio is value / baseline. */
  baseline?: number;
  baselineName?: string;
  target: string;
  ok: boolean;
}

export function printTable(rows: BenchRow[]): void {
  const fmt = (n: number | undefined) => (n === undefined ? '' : n >= 100 ? n.toFixed(0) : n.toFixed(2));
  const lines = rows.map((r) => [
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit} (${r.baselineName})`,
    r.baseline ? (r.value / r.baseline).toFixed(2) : '',
    r.target,
    r.ok ? 'met' : 'MISSED',
  ]);
  const head = ['benchmark', 'result', 'baseline', 'ratio', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(row(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(row(l));
}
