/**
 * Multi-select over a long list, as plain values so the view keeps one `$state.raw` of it:
 * the selected names, the focused row (keyboard cursor) and the anchor a Shift range runs from.
 */
export interface SelectionState {
  selected: ReadonlySet<string>;
  focus: number;
  anchor: number;
}

export const emptySelection: SelectionState = { selected: new Set(), focus: -1, anchor: -1 };

export interface Modifiers {
  /** Ctrl, or Cmd on a Mac: toggle one entry. */
  toggle: boolean;
  /** Shift: extend from the anchor. */
  range: boolean;
}

function rangeNames(names: (i: number) => string, from: number, to: number): Set<string> {
  const out = new Set<string>();
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  for (let i = lo; i <= hi; i++) out.add(names(i));
  return out;
}

/** A click (or Space) on row `index`. */
export function clickRow(state: SelectionState, index: number, names: (i: number) => string, mods: Modifiers): SelectionState {
  const name = names(index);
  if (mods.range && state.anchor >= 0) {
    const range = rangeNames(names, state.anchor, index);
    if (mods.toggle) for (const n of state.selected) range.add(n);
    return { selected: range, focus: index, anchor: state.anchor };
  }
  if (mods.toggle) {
    const selected = new Set(state.selected);
    if (selected.has(name)) selected.delete(name);
    else selected.add(name);
    return { selected, focus: index, anchor: index };
  }
  return { selected: new Set([name]), focus: index, anchor: index };
}

/** Arrow keys: moves the focus by `delta` rows, selecting it (or extending with Shift; Ctrl moves the focus only). */
export function moveFocus(state: SelectionState, delta: number, count: number, names: (i: number) => string, mods: Modifiers): SelectionState {
  if (count === 0) return emptySelection;
  const from = state.focus < 0 ? (delta > 0 ? -1 : count) : state.focus;
  const focus = Math.max(0, Math.min(count - 1, from + delta));
  if (mods.toggle && !mods.range) return { ...state, focus };
  if (mods.range) {
    const anchor = state.anchor >= 0 ? state.anchor : focus;
    return { selected: rangeNames(names, anchor, focus), focus, anchor };
  }
  return { selected: new Set([names(focus)]), focus, anchor: focus };
}

export function selectAll(count: number, names: (i: number) => string): SelectionState {
  if (count === 0) return emptySelection;
  return { selected: rangeNames(names, 0, count - 1), focus: count - 1, anchor: 0 };
}

/** Keeps only names still listed, after entries came and went; the focus follows its entry. */
export function reconcile(state: SelectionState, indexOf: (name: string) => number, focusName: string | null): SelectionState {
  const selected = new Set([...state.selected].filter((n) => indexOf(n) >= 0));
  const focus = focusName === null ? -1 : indexOf(focusName);
  return { selected, focus, anchor: focus < 0 ? -1 : state.anchor };
}
