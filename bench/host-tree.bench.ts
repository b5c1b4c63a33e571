import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '../daemon/src/core/logger.ts';
import { CommandRunner } from '../daemon/src/host/command-runner.ts';
import { copyTree } from '../daemon/src/host/copy-tree.ts';
import { shareAcl } from '../daemon/src/host/file-services/acl.ts';
import { setTreeAcl } from '../daemon/src/host/file-services/tree-acl.ts';
import type { BenchRow } from './lib/table.ts';

const run = promisify(execFile);
const logger = createLogger({ level: 'error', console: false, sinks: [] });
const runner = new CommandRunner(logger, true);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
}

/**
 * Whole-tree work the daemon does as root by descriptors (issue 11), against the commands it
 * replaced that looked every path up by name: a home copy against `cp -a`, the share ACL pass
 * against `find -exec setfacl`. A tree of 10,000 small files in 100 folders and 4 files of 64 MiB.
 */
export async function hostTreeBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-tree-'));
  try {
    const src = path.join(dir, 'src');
    for (let d = 0; d < 100; d++) {
      mkdirSync(path.join(src, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(path.join(src, `d${d}`, `f${f}`), 'x'.repeat(2000));
    }
    for (let b = 0; b < 4; b++) writeFileSync(path.join(src, `big${b}`), Buffer.alloc(64 * 1024 * 1024, b + 1));
    const acl = shareAcl({ users: [{ username: 'nobody', access: 'readWrite' }] });
    await run('setfacl', ['-R', '--set', acl.access, src]);
    mkdirSync(path.join(dir, 'by-cp'));
    mkdirSync(path.join(dir, 'by-walk'));
    const cp = await timed(() => run('cp', ['-a', '--', `${src}/.`, `${dir}/by-cp/`]));
    const walk = await timed(() => copyTree({ runner, logger }, src, path.join(dir, 'by-walk')));
    const find = ['find', src, '!', '-type', 'l'];
    const byFind = await timed(async () => {
      await run('find', [...find.slice(1), '-exec', 'setfacl', '-P', '--set', acl.access, '{}', '+']);
      await run('find', [...find.slice(1), '-type', 'd', '-exec', 'setfacl', '-P', '-d', '--set', acl.defaults, '{}', '+']);
    });
    const byWalk = await timed(() => setTreeAcl({ runner, logger, trashFolder: '.cellar-trash' }, src, '', acl));
    return [
      { name: 'home copy by descriptors', value: walk, unit: 's', baseline: cp, baselineName: 'cp -a', target: 'at most 3x cp -a', ok: walk <= 3 * cp },
      {
        name: 'share ACL pass by descriptors',
        value: byWalk,
        unit: 's',
        baseline: byFind,
        baselineName: 'find -exec setfacl',
        target: 'at most 5x find',
        ok: byWalk <= 5 * byFind,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
