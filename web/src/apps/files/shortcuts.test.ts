import { expect } from 'chai';
import { shortcutOf } from './shortcuts.ts';

const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) =>
  shortcutOf({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('files app shortcuts', () => {
  it('maps the documented keys to commands', () => {
    expect(press('Enter')).to.equal('open');
    expect(press('Backspace')).to.equal('parent');
    expect(press('ArrowUp', { altKey: true })).to.equal('parent');
    expect(press('F2')).to.equal('rename');
    expect(press('Delete')).to.equal('delete');
    expect(press('Delete', { shiftKey: true })).to.equal('deleteForGood');
    expect(press('N', { ctrlKey: true, shiftKey: true })).to.equal('newFolder');
    expect(press('c', { altKey: true })).to.equal('copyTo');
    expect(press('m', { altKey: true })).to.equal('moveTo');
    // A Mac's Option+C types "ç"; the physical key still counts.
    expect(shortcutOf({ key: 'ç', code: 'KeyC', ctrlKey: false, metaKey: false, shiftKey: false, altKey: true })).to.equal('copyTo');
    expect(press('c', { altKey: true, ctrlKey: true })).to.equal(null);
    expect(press('c', { ctrlKey: true })).to.equal('copy');
    expect(press('x', { metaKey: true })).to.equal('cut');
    expect(press('V', { ctrlKey: true })).to.equal('paste');
    expect(press('F1')).to.equal('help');
    expect(press('?', { shiftKey: true })).to.equal('help');
  });

  it('leaves other keys alone', () => {
    expect(press('ArrowUp')).to.equal(null);
    expect(press('c')).to.equal(null);
    expect(press('v', { ctrlKey: true, shiftKey: true })).to.equal(null);
    expect(press('n', { ctrlKey: true })).to.equal(null);
  });
});
