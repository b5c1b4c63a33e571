import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../core/logger.ts';
import { CommandRunner } from './command-runner.ts';
import { copyTree } from './copy-tree.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });
const deps = { runner: new CommandRunner(logger, true), logger };
// Accounts every Debian system has.
const nobody = 65534;
const daemonUid = 1;

/** Everything cp -a keeps of each entry below `top`, keyed by relative path ('' is `top`). */
function describeTree(top: string): Map<string, string> {
  const out = new Map<string, string>();
  const inodes = new Map<number, string>();
  const visit = (rel: string) => {
    const full = path.join(top, rel);
    const s = lstatSync(full);
    const fields: unknown[] = [s.mode.toString(8), s.uid, s.gid];
    if (s.isSymbolicLink()) fields.push('link', readlinkSync(full), s.mtimeMs);
    else {
      fields.push(s.mtimeMs, execFileSync('getfacl', ['-c', '-n', '-p', full], { encoding: 'utf8' }));
      if (s.isFile()) fields.push(createHash('sha256').update(readFileSync(full)).digest('hex'));
      // Hard links: the same inode as which earlier entry.
      if (s.isFile() && s.nlink > 1) fields.push(`same as ${inodes.get(s.ino) ?? (inodes.set(s.ino, rel), rel)}`);
    }
    out.set(rel, JSON.stringify(fields));
    if (s.isDirectory()) for (const name of readdirSync(full).sort()) visit(rel === '' ? name : `${rel}/${name}`);
  };
  visit('');
  return out;
}

/** A home as users leave one: owners, modes, ACLs, links of every kind, hard links, times. */
function makeHome(home: string): void {
  mkdirSync(path.join(home, 'docs', 'deep', 'deeper'), { recursive: true });
  mkdirSync(path.join(home, '.cellar-trash', 'x'), { recursive: true });
  writeFileSync(path.join(home, 'docs', 'a.txt'), 'alpha');
  writeFileSync(path.join(home, 'docs', 'empty'), '');
  writeFileSync(path.join(home, 'docs', 'deep', 'big.bin'), Buffer.alloc(5 * 1024 * 1024 + 17, 7));
  writeFileSync(path.join(home, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(path.join(home, '.cellar-trash', 'x', 'gone.txt'), 'deleted');
  linkSync(path.join(home, 'docs', 'a.txt'), path.join(home, 'docs', 'deep', 'hard.txt'));
  symlinkSync('../a.txt', path.join(home, 'docs', 'deep', 'rel-link'));
  symlinkSync('/etc/passwd', path.join(home, 'abs-link'));
  symlinkSync('nowhere', path.join(home, 'dangling'));
  execFileSync('mkfifo', [path.join(home, 'fifo')]);
  execFileSync('setfacl', ['-R', '--set', `u::rwX,g::---,o::---,u:${nobody}:rwX,m::rwX`, home]);
  execFileSync('setfacl', ['-R', '-d', '--set', `u::rwx,g::---,o::---,u:${nobody}:rwx,m::rwx`, path.join(home, 'docs')]);
  chmodSync(path.join(home, 'docs', 'deep', 'deeper'), 0o2750);
  for (const rel of ['', 'docs', 'docs/a.txt', 'docs/deep', 'run.sh', 'abs-link']) chownSync(path.join(home, rel), nobody, daemonUid);
  // Times last, deepest first, as whole seconds: folders' times change while they fill.
  const entries = readdirSync(home, { recursive: true, encoding: 'utf8' }).sort().reverse();
  for (const [i, rel] of [...entries, ''].entries()) lutimesSync(path.join(home, rel), 1_600_000_000 + i, 1_600_000_000 + i);
}

describe('copyTree (root)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-copy-tree-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies a home as cp -a did: owners, modes, ACLs, times, hard links and links kept; no FIFO', async () => {
    const home = path.join(dir, 'home');
    makeHome(home);
    const byCp = path.join(dir, 'by-cp');
    const byWalk = path.join(dir, 'by-walk');
    mkdirSync(byCp);
    mkdirSync(byWalk);
    execFileSync('cp', ['-a', '--', `${home}/.`, `${byCp}/`]);
    await copyTree(deps, home, byWalk);
    const want = describeTree(byCp);
    want.delete('fifo');
    expect(want.get('docs/a.txt')).to.include(`user:${nobody}:rw-`);
    expect(want.get('docs/deep/hard.txt')).to.include('same as docs/a.txt');
    expect(describeTree(byWalk)).to.deep.equal(want);
  });

  it('refuses to copy into a target with entries of the same name, and copies nothing in development mode', async () => {
    const home = path.join(dir, 'home');
    makeHome(home);
    const taken = path.join(dir, 'taken');
    mkdirSync(path.join(taken, 'docs'), { recursive: true });
    let failed: unknown = null;
    await copyTree(deps, home, taken).catch((err: unknown) => (failed = err));
    expect(failed).to.have.property('code', 'EEXIST');
    const dev = path.join(dir, 'dev');
    mkdirSync(dev);
    await copyTree({ ...deps, runner: new CommandRunner(logger, false) }, home, dev);
    expect(readdirSync(dev)).to.deep.equal([]);
  });
});
