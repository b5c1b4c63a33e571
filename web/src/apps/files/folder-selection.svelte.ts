import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import { emptySelection, reconcile, type SelectionState } from './selection.ts';

/**
 * The selection of one open folder, kept by name: entries come and go (live changes, other
 * windows, the name filter), so indexes shift and the selection keeps only what is still listed.
 * Indexes are into the shown list (`list`), which is the folder's entries narrowed by the filter.
 */
export class FolderSelection {
  state = $state.raw<SelectionState>(emptySelection);
  /** The focused entry by name: its index shifts as entries come and go. */
  private lastFocusName: string | null = null;

  constructor(private readonly list: () => readonly FileEntry[]) {}

  set(next: SelectionState): void {
    this.state = next;
    this.lastFocusName = next.focus >= 0 ? (this.list()[next.focus]?.name ?? null) : null;
  }

  /** Selects and focuses one entry by name, if listed. */
  focusEntry(name: string): void {
    const index = this.list().findIndex((e) => e.name === name);
    if (index >= 0) this.set({ selected: new Set([name]), focus: index, anchor: index });
  }

  /** The selected entries, in list order (the pane keeps it as a derived value). */
  get entries(): FileEntry[] {
    return this.list().filter((e) => this.state.selected.has(e.name));
  }

  get focused(): FileEntry | undefined {
    return this.list()[this.state.focus];
  }

  /** What a command acts on: the selection, or else the focused entry. */
  targets(): FileEntry[] {
    if (this.entries.length > 0) return this.entries;
    const focused = this.focused;
    return focused ? [focused] : [];
  }

  /** Call when the listed entries changed. */
  reconcile(entries: readonly FileEntry[]): void {
    if (this.state.selected.size === 0 && this.state.focus < 0) return;
    const index = new Map(entries.map((e, i) => [e.name, i]));
    const keep = this.lastFocusName !== null && index.has(this.lastFocusName) ? this.lastFocusName : null;
    this.state = reconcile(this.state, (n) => index.get(n) ?? -1, keep);
  }
}
