/** Pure window geometry: placing, clamping, snapping and keyboard steps. No DOM here, so it is unit-tested. */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Area {
  width: number;
  height: number;
}

/** How a window fills the workspace; `normal` uses its own rect. */
export type WindowMode = 'normal' | 'maximised' | 'left' | 'right';
export type Edge = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';

export const minSize = { width: 240, height: 160 } as const;
/** How close (px) to the workspace's side a dragged title bar snaps. */
export const snapMargin = 12;
/** Part of a window that must stay inside the workspace so it can always be grabbed again. */
const keepVisible = 80;

/** The rect a mode gives a window in a workspace. */
export function modeRect(mode: WindowMode, own: Rect, area: Area): Rect {
  const half = Math.round(area.width / 2);
  switch (mode) {
    case 'maximised':
      return { x: 0, y: 0, width: area.width, height: area.height };
    case 'left':
      return { x: 0, y: 0, width: half, height: area.height };
    case 'right':
      return { x: half, y: 0, width: area.width - half, height: area.height };
    default:
      return own;
  }
}

/** Where a drag that ends at this pointer position snaps the window to, if anywhere. */
export function snapTarget(pointerX: number, pointerY: number, area: Area): WindowMode | null {
  if (pointerY <= snapMargin) return 'maximised';
  if (pointerX <= snapMargin) return 'left';
  if (pointerX >= area.width - snapMargin) return 'right';
  return null;
}

/** Keeps a window grabbable: its title bar inside vertically, at least `keepVisible` px inside horizontally. */
export function clampRect(rect: Rect, area: Area): Rect {
  const width = Math.max(minSize.width, Math.min(rect.width, Math.max(minSize.width, area.width)));
  const height = Math.max(minSize.height, Math.min(rect.height, Math.max(minSize.height, area.height)));
  const x = Math.min(Math.max(rect.x, keepVisible - width), Math.max(0, area.width - keepVisible));
  const y = Math.min(Math.max(rect.y, 0), Math.max(0, area.height - 40));
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
}

/** A rect moved by a pointer or keyboard delta. */
export function moveRect(rect: Rect, dx: number, dy: number, area: Area): Rect {
  return clampRect({ ...rect, x: rect.x + dx, y: rect.y + dy }, area);
}

/** A rect resized by dragging an edge or corner by a delta; the opposite side stays put. */
export function resizeRect(rect: Rect, edge: Edge, dx: number, dy: number, area: Area): Rect {
  let { x, y, width, height } = rect;
  if (edge.includes('e')) width = Math.max(minSize.width, width + dx);
  if (edge.includes('s')) height = Math.max(minSize.height, height + dy);
  if (edge.includes('w')) {
    const w = Math.max(minSize.width, width - dx);
    x += width - w;
    width = w;
  }
  if (edge.includes('n')) {
    const h = Math.max(minSize.height, height - dy);
    y += height - h;
    height = h;
  }
  // Resizing never pushes a side past the workspace.
  if (x < 0) {
    width += x;
    x = 0;
  }
  if (y < 0) {
    height += y;
    y = 0;
  }
  width = Math.max(minSize.width, Math.min(width, area.width - x));
  height = Math.max(minSize.height, Math.min(height, area.height - y));
  return { x, y, width, height };
}

/** How far (px) each new window sits right of and below the one opened before it. */
export const cascadeStep = 28;

/**
 * Where a new window goes: its preferred place if it has one, else centred; when a window already
 * sits there, one step right of and below the last window opened, so no window hides another.
 * A step that would push the window past the workspace's bottom or right edge takes the first free
 * place of the cascade again, from its first place down, one step further right per round: new
 * windows stay where the person looks and never jump to the top left corner (only a window as
 * large as the workspace sits there).
 */
export function placeWindow(
  size: { width: number; height: number },
  preferred: { x: number | null; y: number | null } | null,
  open: readonly Rect[],
  area: Area,
): Rect {
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  const maxX = Math.max(0, area.width - width);
  const maxY = Math.max(0, area.height - height);
  const near = (a: number, b: number) => Math.abs(a - b) < cascadeStep / 2;
  const taken = (x: number, y: number) => open.some((r) => near(r.x, x) && near(r.y, y));
  let x = preferred?.x ?? Math.round(maxX / 2);
  let y = preferred?.y ?? Math.round(maxY / 3);
  const last = open.at(-1);
  if (last && taken(x, y)) {
    const origin = { x: Math.min(x, maxX), y: Math.min(y, maxY) };
    x = last.x + cascadeStep;
    y = last.y + cascadeStep;
    if (x > maxX || y > maxY || taken(x, y)) ({ x, y } = cascadeSlots(origin, maxX, maxY).find((p) => !taken(p.x, p.y)) ?? origin);
  }
  return clampRect({ x, y, width, height }, area);
}

/** The cascade's places in order: rounds of diagonal steps from `origin` down, each round one step further right. */
function cascadeSlots(origin: { x: number; y: number }, maxX: number, maxY: number): { x: number; y: number }[] {
  const slots = [];
  for (let round = 0; round < 64; round++) {
    for (let step = 0; origin.y + step * cascadeStep <= maxY; step++) {
      slots.push({ x: (origin.x + (round + step) * cascadeStep) % (maxX + 1), y: origin.y + step * cascadeStep });
    }
  }
  return slots;
}
