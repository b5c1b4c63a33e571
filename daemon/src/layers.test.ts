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
 * Imports between area folders that still close a circle. Empty since the areas hand their backup
 * parts to the backup through their contract (BackupPart and the row helpers sit beside area.ts);
 * the check fails on any circle, and on an entry here that no longer closes one: the list only shrinks.
 */
const knownAreaArrows: string[] = [];

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

/**
 * Where a file under `areas/` lives: its area (a folder, or area.ts beside them) and, in an area
 * with folders of its own (identity/users, files/trash), that folder; null outside areas/.
 */
function placeOf(file: string): { area: string; part: string | null } | null {
  const [top, area, part, rest] = file.split('/');
  if (top !== 'areas' || !area) return null;
  return { area, part: part && rest ? `${area}/${part}` : null };
}

/**
 * Imports between two area folders (`area`), or between two folders of one area (`part`: the
 * area's own files beside them, its `.area.ts` that builds them all, take no part), each once.
 */
export function areaArrows(imports: readonly Import[], level: 'area' | 'part' = 'area'): string[] {
  const arrows = new Set<string>();
  for (const i of imports) {
    const from = placeOf(i.from);
    const to = placeOf(i.to);
    if (!from || !to) continue;
    if (level === 'area' && from.area !== to.area) arrows.add(`${from.area} -> ${to.area}`);
    if (level === 'part' && from.part && to.part && from.area === to.area && from.part !== to.part) arrows.add(`${from.part} -> ${to.part}`);
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

  it('finds a circle between area folders, a long one through a third folder too, and one between two folders of an area', () => {
    withTree(
      {
        'areas/identity/users/users.service.ts': "import type { Rights } from '../permissions/rights.ts';\nexport type U = Rights;\n",
        'areas/identity/permissions/rights.ts': "import type { UserRow } from '../users/user.model.ts';\nexport type Rights = UserRow;\n",
        'areas/identity/users/user.model.ts': "export type UserRow = string;\nexport { x } from './users.service.ts';\n",
        'areas/identity/identity.area.ts': "import '../shares/a.ts';\nimport './users/user.model.ts';\n",
        'areas/shares/a.ts': "import '../files/b.ts';\n",
        'areas/files/b.ts': "import '../storage/c.ts';\n",
        'areas/files/trash/bin.ts': "import '../b.ts';\n",
        'areas/storage/c.ts': "import '../shares/a.ts';\nimport '../../core/d.ts';\n",
        'areas/proxy/e.ts': "import '../shares/a.ts';\n",
        'core/d.ts': 'export {};\n',
      },
      (root) => {
        const imports = importsOf(root);
        const arrows = areaArrows(imports);
        expect(arrows).to.deep.equal(['files -> storage', 'identity -> shares', 'proxy -> shares', 'shares -> files', 'storage -> shares']);
        expect(circles(arrows)).to.deep.equal([['files', 'shares', 'storage']]);
        // Inside identity: its folders import each other; its .area.ts and a file beside a folder (files/b.ts) take no part.
        expect(circles(areaArrows(imports, 'part'))).to.deep.equal([['identity/permissions', 'identity/users']]);
        // A known arrow that still closes its circle is not stale; one whose way back is gone is.
        expect(stale(['shares -> files', 'proxy -> shares'], arrows)).to.deep.equal(['proxy -> shares']);
      },
    );
  });

  it('an import injected into the daemon that runs back up an area folder or an identity folder makes a circle it finds', () => {
    const imports = importsOf(here);
    const without = (arrows: string[]) => arrows.filter((a) => !knownAreaArrows.includes(a));
    // The installer asks storage's DiskGuard about disks; storage asking the installer back would close a circle.
    const up = [...imports, { from: 'areas/storage/disk-guard.ts', to: 'areas/installer/claim.ts' }];
    expect(circles(without(areaArrows(up)))).to.deep.equal([['installer', 'storage']]);
    // users -> permissions again, as before users got their own UserRights port.
    const back = [...imports, { from: 'areas/identity/users/users.service.ts', to: 'areas/identity/permissions/rights.ts' }];
    expect(circles(areaArrows(back, 'part'))).to.deep.equal([['identity/permissions', 'identity/users']]);
  });

  it('the daemon has no back arrow', () => {
    expect(backArrows(importsOf(here)), 'a new import runs up a layer: move what it needs down (docs/architecture.md, Layers)').to.deep.equal([]);
  });

  it('area folders import one way: no circle beyond the known backup arrows, each of which still closes one', () => {
    const arrows = areaArrows(importsOf(here));
    expect(
      circles(arrows.filter((a) => !knownAreaArrows.includes(a))),
      'area folders import each other: give the lower one an interface the upper implements, or move the shared piece down (docs/architecture.md, Layers)',
    ).to.deep.equal([]);
    expect(stale(knownAreaArrows, arrows), 'a known arrow closes no circle any more: take it off the list').to.deep.equal([]);
  });

  it('the folders inside an area import one way (identity: auth -> users <- permissions; files: operations -> trash)', () => {
    expect(circles(areaArrows(importsOf(here), 'part')), 'two folders of one area import each other').to.deep.equal([]);
  });

  it('no two files of the daemon import each other, directly or through others (a type-only or a lazy import counts too)', () => {
    const arrows = importsOf(here).map((i) => `${i.from} -> ${i.to}`);
    expect(circles(arrows), 'files import each other: move the shared type or helper into a file below both').to.deep.equal([]);
    // As the migration list was: the runner loads every migration lazily, and a migration taking its context type from the runner closes a circle.
    const lazy = [...arrows, 'db/migrations/20261122010000-jobs.ts -> db/migrate.ts'];
    expect(circles(lazy)).to.deep.equal([['db/migrate.ts', 'db/migrations/20261122010000-jobs.ts', 'db/migrations/index.ts']]);
  });

  it('shared/src has no import circle between its modules', () => {
    const arrows = importsOf(path.resolve(here, '../../shared/src')).map((i) => `${i.from} -> ${i.to}`);
    expect(circles(arrows), 'shared/src modules import each other: move the shared type into the lower one').to.deep.equal([]);
  });
});
