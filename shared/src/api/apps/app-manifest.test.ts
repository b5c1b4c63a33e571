import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type Joi from 'joi';
import { appManifestSchema, compareVersions } from './app-manifest.ts';

interface Described {
  type: string;
  keys?: Record<string, Described>;
  items?: Described[];
}

/** Every key of an object schema, with the keys of objects inside it, as `parent.key`. */
function keysOf(d: Described, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(d.keys ?? {})) {
    out.push(prefix + key);
    for (const inner of [child, ...(child.items ?? [])]) if (inner.keys) out.push(...keysOf(inner, `${prefix}${key}.`));
  }
  return out;
}

describe('app manifest', () => {
  it('is described in docs/apps.md, key by key: a field the schema gains must be documented', () => {
    const doc = readFileSync(new URL('../../../../docs/apps.md', import.meta.url), 'utf8');
    const keys = keysOf((appManifestSchema as Joi.Schema).describe() as Described);
    expect(keys).to.include.members(['id', 'storage.storageId', 'backend.listen']);
    // Each key has its own table row: `| \`key\` |`.
    const missing = keys.filter((k) => !doc.includes(`| \`${k.split('.').pop()}\``));
    expect(missing).to.deep.equal([]);
  });

  it('accepts the example app in the repository and the manifest the doc shows', () => {
    const example = JSON.parse(readFileSync(new URL('../../../../examples/hello-app/manifest.json', import.meta.url), 'utf8'));
    expect(appManifestSchema.validate(example, { convert: false }).error).to.equal(undefined);
    const doc = readFileSync(new URL('../../../../docs/apps.md', import.meta.url), 'utf8');
    const shown = /```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    expect(JSON.parse(shown)).to.deep.equal(example);
  });

  it('orders versions by semantic-versioning precedence', () => {
    const ordered = ['0.9.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0'];
    for (let i = 1; i < ordered.length; i++)
      expect(compareVersions(ordered[i - 1] as string, ordered[i] as string), `${ordered[i - 1]} < ${ordered[i]}`).to.be.lessThan(0);
    expect(compareVersions('2.0.0', '2.0.0')).to.equal(0);
  });

  it('refuses unknown keys, http homepages and a permission it does not know', () => {
    const example = JSON.parse(readFileSync(new URL('../../../../examples/hello-app/manifest.json', import.meta.url), 'utf8'));
    for (const bad of [
      { ...example, extra: 1 },
      { ...example, homepage: 'http://example.org' },
      { ...example, permissions: ['root'] },
      { ...example, backend: { command: [], listen: 'unix-socket' } },
    ])
      expect(appManifestSchema.validate(bad, { convert: false }).error).to.not.equal(undefined);
  });
});
