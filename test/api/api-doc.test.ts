import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { topics } from '../../shared/src/topics.ts';

const root = path.resolve(import.meta.dirname, '../..');
const apiDoc = readFileSync(path.join(root, 'docs/api.md'), 'utf8');

/** A documented topic name with its placeholders filled in, as a client would send it. */
const example = (name: string) =>
  name.replace('<jobId>', '42').replace('<shareId>', '3').replace('<userId>', '7').replace('<path>', 'photos/2026').replace('<appId>', 'org.example.notes');

describe('docs/api.md, the API guide for third parties', () => {
  it('names every live topic exactly as the daemon accepts it, and no other', () => {
    const documented = [...apiDoc.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => example(m[1] as string));
    expect(documented.length).to.be.above(0);
    for (const name of documented)
      expect(
        Object.values(topics).some((t) => t.pattern.test(name)),
        name,
      ).to.equal(true);
    for (const [key, spec] of Object.entries(topics))
      expect(
        documented.some((name) => spec.pattern.test(name)),
        key,
      ).to.equal(true);
  });

  it('covers sign-in, CSRF, the device cookie and header, problems and the API for apps, and the README links to it', () => {
    for (const pinned of [
      'POST /api/auth/login',
      'box.sid',
      'box.device',
      'X-CSRF-Token',
      'X-Device-Id',
      'application/problem+json',
      'X-Cellar-Instance',
      'Authorization: Bearer',
      '/socket.io',
    ])
      expect(apiDoc, pinned).to.contain(pinned);
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).to.contain('](docs/api.md)');
  });
});
