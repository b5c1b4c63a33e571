import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The daemon's layers, lowest first (docs/architecture.md): a file may import from its own layer
 * and those below, never from one above, nor from daemon.ts and the other files at the top.
 */
const layers = ['core', 'config', 'db', 'host', 'http', 'areas'] as const;

/**
 * Back arrows that were there when this check came (issue 32), each to be moved down; the check
 * fails on any other, and on an entry here that is gone (the list only shrinks).
 */
const known = ['areas/installer/box-seed.ts -> daemon.ts', 'http/openapi/route-errors.ts -> areas/installer/medium-gate.ts'];

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (full.endsWith('.ts') && !full.endsWith('.test.ts')) yield full;
  }
}

/** Every import (static, type-only, dynamic, re-export) of `root`'s files that runs from a layer to one above it. */
export function backArrows(root: string): string[] {
  const rank = (file: string) => {
    const top = path.relative(root, file).split(path.sep)[0] ?? '';
    const index = (layers as readonly string[]).indexOf(top);
    // Files beside the layers (daemon.ts, main.ts) build the whole daemon: they are the top.
    return index >= 0 ? index : layers.length;
  };
  const arrows: string[] = [];
  for (const file of sources(root)) {
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), imported.fileName);
      if (!target.startsWith(root + path.sep)) continue;
      if (rank(target) > rank(file)) arrows.push(`${path.relative(root, file)} -> ${path.relative(root, target)}`);
    }
  }
  return [...new Set(arrows)].sort();
}

describe('daemon layers: imports point down only (core, config, db, host, http, areas)', () => {
  it('finds a back arrow, a type-only and a dynamic one too, and none inside a layer or down', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cellar-layers-'));
    try {
      for (const dir of ['core', 'host', 'areas/tls']) mkdirSync(path.join(root, dir), { recursive: true });
      writeFileSync(path.join(root, 'areas/tls/names.ts'), "import { clock } from '../../core/clock.ts';\nexport const names = clock;\n");
      writeFileSync(path.join(root, 'core/clock.ts'), "import type { Names } from '../host/identity.ts';\nexport const clock = 1;\n");
      writeFileSync(path.join(root, 'host/identity.ts'), "export type Names = string;\nexport const load = () => import('../areas/tls/names.ts');\n");
      writeFileSync(path.join(root, 'host/other.ts'), "export { load } from './identity.ts';\n");
      expect(backArrows(root)).to.deep.equal(['core/clock.ts -> host/identity.ts', 'host/identity.ts -> areas/tls/names.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the daemon has no back arrow beyond the known ones, and each known one is still there', () => {
    const found = backArrows(path.dirname(fileURLToPath(import.meta.url)));
    expect(
      found.filter((a) => !known.includes(a)),
      'a new import runs up a layer: move what it needs down (docs/architecture.md, Layers)',
    ).to.deep.equal([]);
    expect(
      known.filter((a) => !found.includes(a)),
      'a known back arrow is gone: take it off the list',
    ).to.deep.equal([]);
  });
});
