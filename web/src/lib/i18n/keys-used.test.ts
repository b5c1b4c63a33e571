import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import consoleDe from '../../../../console/src/renderer/i18n/de.json' with { type: 'json' };
import consoleEn from '../../../../console/src/renderer/i18n/en.json' with { type: 'json' };
import { deMessages, enMessages } from './dictionaries.ts';

/**
 * Every message key the web and console code name, literally or as a template with a value in
 * it, exists in English and German. The type checker sees literal keys; this also sees the
 * templates cast to MessageKey (`controlPanel.backup.count.${kind}`), which it cannot.
 */
const repo = path.resolve(import.meta.dirname, '../../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Keys and key templates handed to t() or tn() (tn takes the base of `<base>.one`/`<base>.other`). */
function namedKeys(file: string): { key: string; plural: boolean; template: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const out: { key: string; plural: boolean; template: boolean }[] = [];
  for (const m of text.matchAll(/\b(tn?)\(\s*(?:'([^'\n]+)'|`([^`\n]+)`)/g)) {
    const key = m[2] ?? m[3] ?? '';
    out.push({ key, plural: m[1] === 'tn', template: m[3] !== undefined && m[3].includes('${') });
  }
  return out;
}

/** A template as a pattern over keys: each `${...}` one or more key segments' worth of text. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\$\{[^}]*\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\w.-]+')}$`);
}

const cases = [
  { name: 'web', files: sources(path.join(repo, 'web/src')), dictionaries: { en: enMessages, de: deMessages } as Record<string, Record<string, string>> },
  {
    name: 'console',
    files: sources(path.join(repo, 'console/src/renderer')),
    dictionaries: { en: consoleEn, de: consoleDe } as Record<string, Record<string, string>>,
  },
];

describe('message keys the code uses', () => {
  for (const { name, files, dictionaries } of cases) {
    it(`exist in English and German for every t() and tn() of the ${name} code`, () => {
      const missing: string[] = [];
      let seen = 0;
      for (const file of files) {
        for (const { key, plural, template } of namedKeys(file)) {
          seen++;
          const wanted = plural ? [`${key}.one`, `${key}.other`] : [key];
          for (const [language, dictionary] of Object.entries(dictionaries)) {
            const keys = Object.keys(dictionary);
            for (const one of wanted) {
              const found = template ? keys.some((k) => templatePattern(one).test(k)) : Object.hasOwn(dictionary, one);
              if (!found) missing.push(`${language} ${one} (${path.relative(repo, file)})`);
            }
          }
        }
      }
      expect(seen, 'keys found in the code').to.be.greaterThan(50);
      expect(missing).to.deep.equal([]);
    });
  }
});
