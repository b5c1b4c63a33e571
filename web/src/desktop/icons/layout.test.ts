import { expect } from 'chai';
import { changesSince, mergeLayout, moveIcon, placeItems, readLayout, type DesktopLayout } from './layout.ts';

const layout = (icons: DesktopLayout['icons']): DesktopLayout => ({ icons });

describe('desktop icon layout', () => {
  it('reads a saved layout and drops malformed cells', () => {
    expect(readLayout(null)).to.deep.equal({ icons: {} });
    expect(readLayout({ icons: { 1: { col: 0, row: 2 }, 2: { col: -1, row: 0 }, 3: 'x', 4: { col: 1.5, row: 0 } } })).to.deep.equal({
      icons: { 1: { col: 0, row: 2 } },
    });
  });

  it('places new items in the first free cells, column by column, and forgets removed ones', () => {
    const placed = placeItems(layout({ 1: { col: 0, row: 0 }, 9: { col: 3, row: 3 } }), [1, 2, 3, 4], 3);
    expect(placed.icons).to.deep.equal({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 }, 3: { col: 0, row: 2 }, 4: { col: 1, row: 0 } });
  });

  it('swaps an icon dropped on another', () => {
    const moved = moveIcon(layout({ 1: { col: 0, row: 0 }, 2: { col: 2, row: 1 } }), '1', { col: 2, row: 1 });
    expect(moved.icons).to.deep.equal({ 1: { col: 2, row: 1 }, 2: { col: 0, row: 0 } });
  });

  it('lists what this tab changed since its base', () => {
    const base = layout({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 } });
    const local = layout({ 1: { col: 4, row: 0 }, 3: { col: 0, row: 2 } });
    expect(changesSince(base, local)).to.deep.equal({ 1: { col: 4, row: 0 }, 3: { col: 0, row: 2 }, 2: null });
  });

  it("merges on conflict: keeps the other tab's changes and puts this tab's newer change on top", () => {
    const base = layout({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 }, 3: { col: 0, row: 2 } });
    // The other tab moved icon 2 and icon 3; this tab moved icon 3 later and icon 1.
    const server = layout({ 1: { col: 0, row: 0 }, 2: { col: 5, row: 0 }, 3: { col: 6, row: 0 } });
    const local = layout({ 1: { col: 1, row: 1 }, 2: { col: 0, row: 1 }, 3: { col: 2, row: 2 } });
    expect(mergeLayout(server, base, local, 4).icons).to.deep.equal({ 1: { col: 1, row: 1 }, 2: { col: 5, row: 0 }, 3: { col: 2, row: 2 } });
  });

  it("moves the other tab's icon to a free cell when this tab took its cell", () => {
    const base = layout({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 } });
    const server = layout({ 1: { col: 0, row: 0 }, 2: { col: 3, row: 3 } });
    const local = layout({ 1: { col: 3, row: 3 }, 2: { col: 0, row: 1 } });
    const merged = mergeLayout(server, base, local, 4).icons;
    expect(merged['1']).to.deep.equal({ col: 3, row: 3 });
    expect(merged['2']).to.deep.equal({ col: 0, row: 0 });
  });

  it('keeps an icon this tab removed removed, and one the other tab added', () => {
    const base = layout({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 } });
    const server = layout({ 1: { col: 0, row: 0 }, 2: { col: 0, row: 1 }, 7: { col: 1, row: 0 } });
    const local = layout({ 1: { col: 0, row: 0 } });
    expect(mergeLayout(server, base, local, 4).icons).to.deep.equal({ 1: { col: 0, row: 0 }, 7: { col: 1, row: 0 } });
  });
});
