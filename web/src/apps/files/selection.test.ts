import { expect } from 'chai';
import { clickRow, emptySelection, moveFocus, reconcile, selectAll } from './selection.ts';

const list = ['a', 'b', 'c', 'd', 'e'];
const names = (i: number) => list[i] ?? '';
const none = { toggle: false, range: false };
const sorted = (s: ReadonlySet<string>) => [...s].sort();

describe('files app selection', () => {
  it('selects one row on a plain click and toggles with Ctrl', () => {
    let s = clickRow(emptySelection, 1, names, none);
    expect(sorted(s.selected)).to.deep.equal(['b']);
    s = clickRow(s, 3, names, { toggle: true, range: false });
    expect(sorted(s.selected)).to.deep.equal(['b', 'd']);
    s = clickRow(s, 1, names, { toggle: true, range: false });
    expect(sorted(s.selected)).to.deep.equal(['d']);
    expect(s.focus).to.equal(1);
  });

  it('extends a range from the anchor with Shift, both ways, and adds it with Ctrl+Shift', () => {
    let s = clickRow(emptySelection, 1, names, none);
    s = clickRow(s, 3, names, { toggle: false, range: true });
    expect(sorted(s.selected)).to.deep.equal(['b', 'c', 'd']);
    s = clickRow(s, 0, names, { toggle: false, range: true });
    expect(sorted(s.selected)).to.deep.equal(['a', 'b']);
    const t = clickRow(clickRow(emptySelection, 4, names, none), 3, names, { toggle: true, range: false });
    expect(sorted(clickRow(t, 1, names, { toggle: true, range: true }).selected)).to.deep.equal(['b', 'c', 'd', 'e']);
  });

  it('moves the focus with arrows, clamped, and extends with Shift', () => {
    let s = moveFocus(emptySelection, 1, list.length, names, none);
    expect(s.focus).to.equal(0);
    s = moveFocus(s, -1, list.length, names, none);
    expect(s.focus).to.equal(0);
    s = moveFocus(s, 2, list.length, names, { toggle: false, range: true });
    expect(sorted(s.selected)).to.deep.equal(['a', 'b', 'c']);
    s = moveFocus(s, 10, list.length, names, none);
    expect([s.focus, sorted(s.selected)]).to.deep.equal([4, ['e']]);
    // Ctrl moves the focus but keeps the selection.
    expect(sorted(moveFocus(s, -2, list.length, names, { toggle: true, range: false }).selected)).to.deep.equal(['e']);
    expect(moveFocus(emptySelection, -1, list.length, names, none).focus).to.equal(4);
  });

  it('selects all and drops names that left the list', () => {
    const s = selectAll(list.length, names);
    expect(s.selected.size).to.equal(5);
    const after = reconcile(s, (n) => ['a', 'c', 'e'].indexOf(n), 'e');
    expect([sorted(after.selected), after.focus]).to.deep.equal([['a', 'c', 'e'], 2]);
    expect(selectAll(0, names)).to.equal(emptySelection);
  });
});
