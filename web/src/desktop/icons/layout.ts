/**
 * This device's desktop layout (kept by PUT /api/desktop/layout): where each desktop item's
 * icon sits, in grid cells so it survives a window of another size. Pure functions, unit-tested.
 */
export interface Cell {
  col: number;
  row: number;
}

export interface DesktopLayout {
  /** Keyed by desktop item id. */
  icons: Record<string, Cell>;
}

export const emptyLayout = (): DesktopLayout => ({ icons: {} });

const isCell = (value: unknown): value is Cell => {
  const cell = value as Cell | null;
  return typeof cell === 'object' && cell !== null && Number.isInteger(cell.col) && Number.isInteger(cell.row) && cell.col >= 0 && cell.row >= 0;
};

/** The layout as saved, tolerating null (nothing saved yet) and anything malformed (another version of the web). */
export function readLayout(raw: unknown): DesktopLayout {
  const icons: Record<string, Cell> = {};
  const saved = (raw as { icons?: unknown } | null)?.icons;
  if (typeof saved === 'object' && saved !== null) {
    for (const [id, cell] of Object.entries(saved)) if (isCell(cell)) icons[id] = { col: cell.col, row: cell.row };
  }
  return { icons };
}

const sameCell = (a: Cell | undefined, b: Cell | undefined) => a?.col === b?.col && a?.row === b?.row;

/** What this tab changed since `base` (the layout it last loaded or saved): new cells, or null for removed icons. */
export function changesSince(base: DesktopLayout, local: DesktopLayout): Record<string, Cell | null> {
  const changes: Record<string, Cell | null> = {};
  for (const [id, cell] of Object.entries(local.icons)) if (!sameCell(base.icons[id], cell)) changes[id] = cell;
  for (const id of Object.keys(base.icons)) if (!(id in local.icons)) changes[id] = null;
  return changes;
}

/**
 * Resolves a conflict: another tab saved `server` since this tab's `base`. This tab's own
 * changes are the newest, so they go on top of the server's layout; whatever the other tab
 * changed and this one did not stays. An icon this tab moved into a cell the other tab filled
 * wins the cell; the other icon moves to the nearest free cell.
 */
export function mergeLayout(server: DesktopLayout, base: DesktopLayout, local: DesktopLayout, rows: number): DesktopLayout {
  const changes = changesSince(base, local);
  const icons: Record<string, Cell> = { ...server.icons };
  for (const [id, cell] of Object.entries(changes)) {
    if (cell) icons[id] = cell;
    else delete icons[id];
  }
  for (const [id, cell] of Object.entries(icons)) {
    if (id in changes) continue;
    const clash = Object.entries(changes).some(([other, mine]) => other !== id && mine && sameCell(mine, cell));
    if (clash) icons[id] = freeCell(icons, rows, id);
  }
  return { icons };
}

/** The first free cell, filling columns top to bottom like a file manager. */
export function freeCell(icons: Record<string, Cell>, rows: number, except?: string): Cell {
  const taken = new Set(
    Object.entries(icons)
      .filter(([id]) => id !== except)
      .map(([, c]) => `${c.col}:${c.row}`),
  );
  const perColumn = Math.max(1, rows);
  for (let i = 0; ; i++) {
    const cell = { col: Math.floor(i / perColumn), row: i % perColumn };
    if (!taken.has(`${cell.col}:${cell.row}`)) return cell;
  }
}

/** Gives every item without a cell one (new items, items from another device) and drops cells of removed items. */
export function placeItems(layout: DesktopLayout, itemIds: number[], rows: number): DesktopLayout {
  const ids = new Set(itemIds.map(String));
  const icons: Record<string, Cell> = {};
  for (const [id, cell] of Object.entries(layout.icons)) if (ids.has(id)) icons[id] = cell;
  for (const id of ids) if (!icons[id]) icons[id] = freeCell(icons, rows);
  return { icons };
}

/** Moves an icon to a cell; an icon already there swaps into the moved icon's old cell. */
export function moveIcon(layout: DesktopLayout, id: string, to: Cell): DesktopLayout {
  const from = layout.icons[id];
  const icons = { ...layout.icons };
  for (const [other, cell] of Object.entries(icons)) {
    if (other !== id && sameCell(cell, to) && from) icons[other] = from;
  }
  icons[id] = to;
  return { icons };
}
