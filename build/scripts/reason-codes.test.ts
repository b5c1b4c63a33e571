import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from '../../test/helpers/source-files.ts';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { errorCatalog, type ErrorSpec } from '../../shared/src/errors/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `new ProblemError('<code>', { reason: '<value>' ...`: the reasons the daemon spells out where it throws. */
const thrown = /ProblemError\('([a-z_.]+)',\s*\{\s*reason:\s*'([A-Za-z_]+)'/g;

describe('reason codes of the daemon', () => {
  it('declares every reason the daemon throws in the error catalog, which the web translates', () => {
    const catalog = errorCatalog as Record<string, ErrorSpec>;
    const found: string[] = [];
    const undeclared: string[] = [];
    for (const file of sourceFiles(path.join(root, 'daemon/src'))) {
      for (const [, code, reason] of readFileSync(file, 'utf8').matchAll(thrown)) {
        const spec = catalog[code as string];
        // Codes whose texts name their reasons in an app's own keys (App Center packages) list none here.
        if (spec?.reasons === undefined) continue;
        found.push(`${code} ${reason}`);
        if (!spec.reasons.includes(reason as string)) undeclared.push(`${path.relative(root, file)}: ${code} ${reason}`);
      }
    }
    expect(found).to.include('fs.share.folder_invalid missing');
    expect(undeclared).to.deep.equal([]);
  });
});
