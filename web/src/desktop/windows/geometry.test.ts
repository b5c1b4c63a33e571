import { expect } from 'chai';
import { clampRect, minSize, modeRect, moveRect, placeWindow, resizeRect, snapTarget } from './geometry.ts';

const area = { width: 1200, height: 800 };

describe('window geometry', () => {
  it('snaps to the left or right half near the sides and maximises at the top', () => {
    expect(snapTarget(3, 400, area)).to.equal('left');
    expect(snapTarget(1198, 400, area)).to.equal('right');
    expect(snapTarget(600, 2, area)).to.equal('maximised');
    expect(snapTarget(600, 400, area)).to.equal(null);
    expect(snapTarget(13, 13, area)).to.equal(null);
  });

  it('gives halves that together fill the workspace, also for an odd width', () => {
    const own = { x: 10, y: 10, width: 300, height: 200 };
    const odd = { width: 1201, height: 800 };
    const left = modeRect('left', own, odd);
    const right = modeRect('right', own, odd);
    expect(left).to.deep.equal({ x: 0, y: 0, width: 601, height: 800 });
    expect(right).to.deep.equal({ x: 601, y: 0, width: 600, height: 800 });
    expect(modeRect('maximised', own, area)).to.deep.equal({ x: 0, y: 0, ...area });
    expect(modeRect('normal', own, area)).to.equal(own);
  });

  it('keeps a moved window grabbable: title bar inside, part of it on screen', () => {
    const rect = { x: 100, y: 100, width: 400, height: 300 };
    expect(moveRect(rect, -2000, -500, area)).to.deep.equal({ x: 80 - 400, y: 0, width: 400, height: 300 });
    expect(moveRect(rect, 5000, 5000, area)).to.deep.equal({ x: 1200 - 80, y: 800 - 40, width: 400, height: 300 });
    expect(moveRect(rect, 20, -30, area)).to.deep.equal({ x: 120, y: 70, width: 400, height: 300 });
  });

  it('resizes from any edge, keeping the opposite side and the minimum size', () => {
    const rect = { x: 100, y: 100, width: 400, height: 300 };
    expect(resizeRect(rect, 'se', 50, 40, area)).to.deep.equal({ x: 100, y: 100, width: 450, height: 340 });
    expect(resizeRect(rect, 'nw', 50, 40, area)).to.deep.equal({ x: 150, y: 140, width: 350, height: 260 });
    expect(resizeRect(rect, 'w', 1000, 0, area)).to.deep.equal({ x: 100 + 400 - minSize.width, y: 100, width: minSize.width, height: 300 });
    // Never past the workspace's sides.
    expect(resizeRect(rect, 'n', 0, -500, area)).to.deep.equal({ x: 100, y: 0, width: 400, height: 400 });
    expect(resizeRect(rect, 'e', 5000, 0, area)).to.deep.equal({ x: 100, y: 100, width: 1100, height: 300 });
  });

  it('places a first window centred, cascades further ones from the last opened, and honours a saved place', () => {
    const first = placeWindow({ width: 600, height: 400 }, null, [], area);
    expect(first).to.deep.equal({ x: 300, y: 133, width: 600, height: 400 });
    // Another app of another size: still one step from the last window, not centred on top of it.
    const second = placeWindow({ width: 600, height: 400 }, null, [first], area);
    expect(second).to.deep.equal({ x: 328, y: 161, width: 600, height: 400 });
    const third = placeWindow({ width: 600, height: 400 }, null, [first, second], area);
    expect(third).to.deep.equal({ x: 356, y: 189, width: 600, height: 400 });
    expect(placeWindow({ width: 500, height: 300 }, { x: 40, y: 50 }, [first], area)).to.deep.equal({ x: 40, y: 50, width: 500, height: 300 });
    // Larger than the screen: fitted.
    expect(placeWindow({ width: 3000, height: 2000 }, null, [], area)).to.deep.equal({ x: 0, y: 0, width: 1200, height: 800 });
  });

  it('wraps the cascade inside the workspace', () => {
    const open = [placeWindow({ width: 600, height: 400 }, null, [], area)];
    for (let i = 0; i < 20; i++) open.push(placeWindow({ width: 600, height: 400 }, null, open, area));
    for (const r of open) {
      expect(r.x + r.width).to.be.at.most(area.width);
      expect(r.y + r.height).to.be.at.most(area.height);
    }
    // No two windows share a corner.
    expect(new Set(open.map((r) => `${r.x},${r.y}`)).size).to.equal(open.length);
    // Past the bottom the cascade starts again at its first place, one step further right: not at (0,0).
    const wrapped = open.findIndex((r, i) => i > 0 && r.y < open[i - 1]!.y);
    expect(wrapped).to.be.greaterThan(0);
    expect(open[wrapped]).to.include({ x: open[0]!.x + 28, y: open[0]!.y });
    expect(open.filter((r) => r.x === 0 && r.y === 0)).to.deep.equal([]);
  });

  it('keeps a cascade of tall or wide windows near its first place instead of the top left corner', () => {
    for (const size of [
      { width: 500, height: 740 },
      { width: 1150, height: 300 },
    ]) {
      const open = [placeWindow(size, null, [], area)];
      for (let i = 0; i < 8; i++) open.push(placeWindow(size, null, open, area));
      for (const r of open) {
        expect(r.x + r.width, JSON.stringify(r)).to.be.at.most(area.width);
        expect(r.y + r.height, JSON.stringify(r)).to.be.at.most(area.height);
        expect(r.x === 0 && r.y === 0, `${JSON.stringify(size)} window at the corner`).to.equal(false);
      }
      expect(new Set(open.map((r) => `${r.x},${r.y}`)).size).to.equal(open.length);
    }
  });

  it('clamps a saved window from a larger screen into a smaller one', () => {
    expect(clampRect({ x: 1800, y: 900, width: 1600, height: 1000 }, { width: 800, height: 600 })).to.deep.equal({ x: 720, y: 560, width: 800, height: 600 });
  });
});
