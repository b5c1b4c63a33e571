/**
 * Arrow-key movement in a list of rows whose selection buttons use a roving tab stop:
 * ArrowUp/ArrowDown/Home/End select another row and move focus to it.
 */
export function moveSelection<T>(event: KeyboardEvent, rows: readonly T[], index: number, select: (row: T) => void, focusIn: HTMLElement | undefined): void {
  const targets: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: rows.length - 1 };
  const target = targets[event.key];
  if (target === undefined) return;
  event.preventDefault();
  const row = rows[Math.max(0, Math.min(rows.length - 1, target))];
  if (row === undefined) return;
  select(row);
  // The newly selected row's button becomes the tab stop once rendered.
  queueMicrotask(() => focusIn?.querySelector<HTMLElement>('[data-row-select][tabindex="0"]')?.focus());
}
