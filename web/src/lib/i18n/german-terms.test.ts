import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import consoleDe from '../../../../console/src/renderer/i18n/de.json' with { type: 'json' };
import { deMessages } from './dictionaries.ts';

const repo = path.resolve(import.meta.dirname, '../../../..');

/** The words docs/german-terms.md says not to use: the last column of its table. */
function avoidedWords(): string[] {
  const rows = readFileSync(path.join(repo, 'docs/german-terms.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1);
  return rows.flatMap((row) => (row.split('|')[3] ?? '').split(',').map((w) => w.trim())).filter(Boolean);
}

describe('German word list (docs/german-terms.md)', () => {
  it('keeps every avoided word out of the German texts of the web and the console', () => {
    const words = avoidedWords();
    expect(words).to.include('Schnappschuss');
    const found: string[] = [];
    for (const [key, text] of Object.entries({ ...deMessages, ...consoleDe })) {
      for (const word of words) {
        if (new RegExp(`(^|[^\\p{L}-])${word}($|[^\\p{L}])`, 'u').test(text)) found.push(`${key}: ${word}`);
      }
    }
    expect(found).to.deep.equal([]);
  });
});
