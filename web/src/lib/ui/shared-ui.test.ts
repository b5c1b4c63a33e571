import { expect } from 'chai';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webSrc = fileURLToPath(new URL('../../', import.meta.url));

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield path.relative(webSrc, full);
  }
}

describe('web: shared pieces live once, in web/src/lib/ui', () => {
  it('has one ConfirmDialog, the one in lib/ui, for the desktop and the apps alike', () => {
    const dialogs = [...files(webSrc)].filter((file) => path.basename(file) === 'ConfirmDialog.svelte');
    expect(dialogs).to.deep.equal([path.join('lib', 'ui', 'ConfirmDialog.svelte')]);
  });
});
