import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(import.meta.dirname, '../..');

/** The documents a person who clones the repository reads. */
function documents(): string[] {
  const docs = existsSync(path.join(root, 'docs')) ? readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')) : [];
  return ['README.md', ...docs.map((f) => path.join('docs', f))];
}

/** Markdown links and backticked paths that name a file of ours (`../x`, `docs/x.md`). */
function references(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  const ticked = [...text.matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1] as string);
  return [...links, ...ticked].filter((ref) => !/^[a-z]+:/.test(ref) && !ref.startsWith('#'));
}

describe('the repository explains itself', () => {
  it('links from the README and docs/ only to files the repository holds', () => {
    for (const doc of documents()) {
      for (const ref of references(readFileSync(path.join(root, doc), 'utf8'))) {
        const target = path.resolve(root, path.dirname(doc), ref.split('#')[0] as string);
        expect(target.startsWith(root + path.sep), `${doc} links out of the repository: ${ref}`).to.equal(true);
        expect(existsSync(target), `${doc} links to a missing file: ${ref}`).to.equal(true);
      }
    }
  });

  it('has the architecture document the README points to', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).to.include('](docs/architecture.md)');
  });
});
