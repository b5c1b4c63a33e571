import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { expect } from 'chai';
import type { Vm } from './qemu.ts';

/**
 * What the virtual-machine tests share about a guest: waiting for it, its disk read (or written)
 * while no machine uses it, and its journal read from that disk and kept as files.
 */

export const minute = 60_000;
/** The daemon's port on the medium and on the box (build/debian/cellar.json). */
export const guestPort = 7484;
/** systemd's journal message ids (sd-messages.h): a unit started, a start job failed, a unit ended in failure. */
const unitStarted = '39f53479d3a045ac8e11786248231fbf';
const unitFailedIds = new Set(['be02cf6855d2428ba40df7e9d022f03d', 'd9b373ed55a64feb8242e02dbe79a49c']);

export const sh = (argv: string[]) =>
  execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET over TLS without trusting anything: the body, or null while nothing answers. */
export function fetchInsecure(url: string): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = request(url, { rejectUnauthorized: false, timeout: 15_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>, vm: Vm): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (!vm.running) throw new Error(`the machine ended while waiting for ${what} (serial log ${vm.serialLog}) ${vm.qemuErrors}`);
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    await sleep(3000);
  }
  throw new Error(`no ${what} within ${timeoutMs / 1000} s (serial log ${vm.serialLog})`);
}

export interface JournalEntry {
  MESSAGE?: string;
  MESSAGE_ID?: string;
  UNIT?: string;
  SYSLOG_IDENTIFIER?: string;
}

/**
 * Runs `use` on an installed disk's system file system (partition 3), mounted while no machine
 * uses the disk: read-only unless `writable` (the test then plays the owner editing the box's files).
 */
export function onDisk<T>(work: string, disk: string, label: string, use: (mnt: string) => T, writable = false): T {
  const mnt = path.join(work, `mnt-${label}`);
  mkdirSync(mnt, { recursive: true });
  const loop = sh(['losetup', '-f', '--show', '-P', ...(writable ? [] : ['-r']), disk]).trim();
  try {
    // A read-only loop device gets no partition scan here: partx adds the partitions.
    if (!existsSync(`${loop}p3`)) sh(['partx', '-a', loop]);
    sh(['mount', '-o', writable ? 'rw' : 'ro,noload', `${loop}p3`, mnt]);
    try {
      return use(mnt);
    } finally {
      sh(['umount', mnt]);
    }
  } finally {
    sh(['losetup', '-d', loop]);
  }
}

/** A disk's journal, read after its machine ended: JSON entries of its last boot, also kept as files (named in `saved`). */
export function readJournal(work: string, disk: string, label: string, saved: string[]): JournalEntry[] {
  return onDisk(work, disk, label, (mnt) => {
    const dir = path.join(mnt, 'var/log/journal');
    const text = path.join(work, `journal-${label}.txt`);
    writeFileSync(text, sh(['journalctl', '-D', dir, '--no-pager', '-o', 'short-monotonic']));
    saved.push(text);
    // The daemon's own journal beside the whole one, as the issue asks of a failure.
    const daemon = path.join(work, `journal-${label}-cellar.txt`);
    writeFileSync(daemon, sh(['journalctl', '-D', dir, '-u', 'cellar.service', '--no-pager', '-o', 'short-monotonic']));
    saved.push(daemon);
    return sh(['journalctl', '-D', dir, '-b', '--no-pager', '-o', 'json'])
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry);
  });
}

/** The last boot's journal: cellar.service and systemd-networkd started, no unit failed. */
export function expectCleanBoot(journal: JournalEntry[]): void {
  const started = journal.filter((e) => e.MESSAGE_ID === unitStarted).map((e) => e.UNIT);
  expect(started).to.include('cellar.service');
  expect(started).to.include('systemd-networkd.service');
  const failed = journal.filter((e) => e.MESSAGE_ID && unitFailedIds.has(e.MESSAGE_ID)).map((e) => `${e.UNIT}: ${e.MESSAGE}`);
  expect(failed, 'failed units').to.deep.equal([]);
}
