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
 * Imports between area folders that still close a circle, all of them the backup's collector and
 * its parts (the backup folder imports the parts, the parts import its BackupPart and table-rows,
 * and area.ts takes BackupPart from it). They go when the areas hand their parts over through their
 * contract; the check fails on any other circle, and on an entry here that no longer closes one:
 * the list only shrinks, to empty.
 */
const knownAreaArrows = ['area.ts -> backup', 'backup -> identity', 'backup -> shares'];

const here = path.dirname(fileURLToPath(import.meta.url));

/** An import from one file to another, both relative to the tree's root, `/`-separated. */
export interface Import {
  from: string;
  to: string;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (full.endsWith('.ts') && !full.endsWith('.test.ts')) yield full;
  }
}

/** Every relative import (static, type-only, dynamic, re-export) between `root`'s own files, tests left out. */
export function importsOf(root: string): Import[] {
  const found: Import[] = [];
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  for (const file of sources(root)) {
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), imported.fileName);
      if (target.startsWith(root + path.sep)) found.push({ from: rel(file), to: rel(target) });
    }
  }
  return found;
}

/** The imports that run from a layer to one above it, as `from -> to`. */
export function backArrows(imports: readonly Import[]): string[] {
  const rank = (file: string) => {
    const index = (layers as readonly string[]).indexOf(file.split('/')[0] ?? '');
    // Files beside the layers (daemon.ts, main.ts) build the whole daemon: they are the top.
    return index >= 0 ? index : layers.length;
  };
  return [...new Set(imports.filter((i) => rank(i.to) > rank(i.from)).map((i) => `${i.from} -> ${i.to}`))].sort();
}

/** The area folder (or file beside them, area.ts) a path under `areas/` belongs to; null outside. */
function areaOf(file: string): string | null {
  const [top, area] = file.split('/');
  return top === 'areas' && area ? area : null;
}

/** Imports between two area folders, as `area -> area`, each once. */
export function areaArrows(imports: readonly Import[]): string[] {
  const arrows = new Set<string>();
  for (const i of imports) {
    const from = areaOf(i.from);
    const to = areaOf(i.to);
    if (from && to && from !== to) arrows.add(`${from} -> ${to}`);
  }
  return [...arrows].sort();
}

/** The circles among `arrows` (`a -> b`): each a sorted list of the nodes that reach one another, two or more (Tarjan). */
export function circles(arrows: readonly string[]): string[][] {
  const next = new Map<string, string[]>();
  for (const arrow of arrows) {
    const [from, to] = arrow.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      members.push(member);
    } while (member !== node);
    if (members.length > 1) found.push(members.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

/** Of `known`, the arrows that no longer close a circle of `arrows` (gone, or now one way). */
export function stale(known: readonly string[], arrows: readonly string[]): string[] {
  const inCircle = (arrow: string) => {
    const [from, to] = arrow.split(' -> ');
    return circles(arrows).some((c) => c.includes(from!) && c.includes(to!));
  };
  return known.filter((arrow) => !arrows.includes(arrow) || !inCircle(arrow));
}

function withTree(files: Record<string, string>, check: (root: string) => void): void {
  const root = mkdtempSync(path.join(tmpdir(), 'cellar-layers-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    check(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('daemon layers: imports point down only (core, config, db, host, http, areas), and area folders import one way', () => {
  it('finds a back arrow, a type-only and a dynamic one too, and none inside a layer or down', () => {
    withTree(
      {
        'areas/tls/names.ts': "import { clock } from '../../core/clock.ts';\nexport const names = clock;\n",
        'core/clock.ts': "import type { Names } from '../host/identity.ts';\nexport const clock = 1;\n",
        'host/identity.ts': "export type Names = string;\nexport const load = () => import('../areas/tls/names.ts');\n",
        'host/other.ts': "export { load } from './identity.ts';\n",
        'areas/tls/names.test.ts': "import '../../daemon.ts';\n",
        'daemon.ts': "import './areas/tls/names.ts';\n",
      },
      (root) => expect(backArrows(importsOf(root))).to.deep.equal(['core/clock.ts -> host/identity.ts', 'host/identity.ts -> areas/tls/names.ts']),
    );
  });

  it('finds a circle between area folders, a long one through a third folder too, and none inside one folder', () => {
    withTree(
      {
        'areas/users/users.service.ts': "import type { Rights } from '../permissions/rights.ts';\nexport type U = Rights;\n",
        'areas/permissions/rights.ts': "import type { UserRow } from '../users/user.model.ts';\nexport type Rights = UserRow;\n",
        'areas/users/user.model.ts': "export type UserRow = string;\nexport { x } from './users.service.ts';\n",
        'areas/shares/a.ts': "import '../files/b.ts';\n",
        'areas/files/b.ts': "import '../storage/c.ts';\n",
        'areas/storage/c.ts': "import '../shares/a.ts';\nimport '../../core/d.ts';\n",
        'areas/proxy/e.ts': "import '../shares/a.ts';\n",
        'core/d.ts': 'export {};\n',
      },
      (root) => {
        const arrows = areaArrows(importsOf(root));
        expect(arrows).to.include('permissions -> users').and.include('proxy -> shares');
        expect(circles(arrows)).to.deep.equal([
          ['files', 'shares', 'storage'],
          ['permissions', 'users'],
        ]);
        // A known arrow that still closes its circle is not stale; one whose way back is gone is.
        expect(stale(['users -> permissions', 'proxy -> shares'], arrows)).to.deep.equal(['proxy -> shares']);
      },
    );
  });

  it('finds the circle an injected back import makes in the daemon', () => {
    const imports = importsOf(here);
    expect(circles(areaArrows(imports).filter((a) => !knownAreaArrows.includes(a)))).to.deep.equal([]);
    // users -> permissions again, as before the identity triangle was broken by users' own UserRights port.
    const injected = [...imports, { from: 'areas/identity/users/users.service.ts', to: 'areas/installer/claim.ts' }];
    const found = circles(areaArrows(injected).filter((a) => !knownAreaArrows.includes(a)));
    expect(found, 'installer imports identity (the first administrator), so identity -> installer closes a circle').to.have.length(1);
    expect(found[0]).to.include.members(['identity', 'installer']);
  });

  it('the daemon has no back arrow', () => {
    expect(backArrows(importsOf(here)), 'a new import runs up a layer: move what it needs down (docs/architecture.md, Layers)').to.deep.equal([]);
  });

  it('the area folders import one way: no circle beyond the known backup arrows, each of which still closes one', () => {
    const arrows = areaArrows(importsOf(here));
    expect(
      circles(arrows.filter((a) => !knownAreaArrows.includes(a))),
      'area folders import each other: give the lower one an interface the upper implements, or move the shared piece down (docs/architecture.md, Layers)',
    ).to.deep.equal([]);
    expect(stale(knownAreaArrows, arrows), 'a known arrow closes no circle any more: take it off the list').to.deep.equal([]);
  });

  it('the daemon and shared/src have no import circle between two files of an area folder and another, nor in shared/src', () => {
    const shared = path.resolve(here, '../../shared/src');
    const fileArrows = importsOf(shared).map((i) => `${i.from} -> ${i.to}`);
    expect(circles(fileArrows), 'shared/src modules import each other: move the shared type into the lower one').to.deep.equal([]);
  });
});
