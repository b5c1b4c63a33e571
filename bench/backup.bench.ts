import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../daemon/src/areas/identity/users/passwords.ts';
import { createLogger } from '../daemon/src/core/logger.ts';
import { openDatabase } from '../daemon/src/db/database.ts';
import { writeBackup } from '../shared/src/backup/backup-file.ts';
import { fastest, timed } from './lib/best-of.ts';
import { startSignedInDaemon, type DaemonSession } from './lib/daemon-session.ts';
import type { BenchRow } from './lib/table.ts';

const counts = { users: 1000, shares: 100, grantsPerShare: 100 };
const backupPassword = 'bench backup passphrase';
const targetMs = 2000;

/** 1,000 users, 100 shares on real folders and 10,000 share grants, written straight into the daemon's SQLite file. */
async function seed(dataDir: string, folders: string): Promise<void> {
  const db = await openDatabase(path.join(dataDir, 'cellar.sqlite'), createLogger({ level: 'error', console: false, sinks: [] }));
  const now = new Date().toISOString();
  // One hash for all: hashing 1,000 passwords would only measure the seeding.
  const hash = await hashPassword('bench user password 1');
  await db.transaction(async (transaction) => {
    for (let i = 0; i < counts.users; i++)
      await db.query(
        'INSERT INTO users (username, uid, display_name, password_hash, admin, active, language, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 1, ?, ?, ?)',
        {
          replacements: [`user${i}`, 21000 + i, `User ${i}`, hash, 'en', now, now],
          transaction,
        },
      );
    for (let s = 0; s < counts.shares; s++) {
      const folder = path.join(folders, `share${s}`);
      mkdirSync(folder);
      await db.query('INSERT INTO shares (name, host_path, smb_enabled, created_at) VALUES (?, ?, 1, ?)', {
        replacements: [`Share ${s}`, folder, now],
        transaction,
      });
    }
    await db.query(
      `INSERT INTO share_grants (share_id, subject_type, subject_id, level)
       SELECT s.id, 'user', u.id, CASE WHEN u.id % 2 = 0 THEN 'read' ELSE 'readWrite' END
       FROM shares s JOIN users u ON u.username LIKE 'user%' AND CAST(substr(u.username, 5) AS INTEGER) % (? / ?) = s.id % (? / ?)`,
      { replacements: [counts.users, counts.grantsPerShare, counts.users, counts.grantsPerShare], transaction },
    );
  });
  await db.close();
}

async function download(session: DaemonSession): Promise<Buffer> {
  const response = await fetch(`${session.base}/api/system/backup`, {
    method: 'POST',
    headers: { ...session.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ password: backupPassword }),
  });
  if (!response.ok) throw new Error(`backup answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Backup and inspect of a large configuration through the real daemon's API. The baseline is the
 * key derivation alone (an empty backup written in this process): the ratio is what the
 * configuration itself adds to the password's deliberate cost.
 */
export async function backupBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-backup-'));
  const dataDir = path.join(dir, 'data');
  const folders = path.join(dir, 'folders');
  mkdirSync(folders);
  try {
    await (await startSignedInDaemon(dataDir)).stop();
    await seed(dataDir, folders);
    const session = await startSignedInDaemon(dataDir);
    try {
      const file = await download(session);
      const grants = (
        await session.json<{ parts: { name: string; counts: Record<string, number> }[] }>('POST', '/api/system/backup/inspect', {
          password: backupPassword,
          backup: file.toString('base64'),
        })
      ).parts.find((p) => p.name === 'shares')?.counts.shareGrants;
      if (grants !== counts.shares * counts.grantsPerShare) throw new Error(`the seeded configuration has ${grants} share grants`);
      const backupMs = await fastest(() => timed(() => download(session)));
      const inspectMs = await fastest(() =>
        timed(() => session.json('POST', '/api/system/backup/inspect', { password: backupPassword, backup: file.toString('base64') })),
      );
      const kdfMs = await fastest(() => timed(() => writeBackup({ createdAt: '', box: { name: '', version: '' }, parts: {} }, backupPassword)));
      const config = `${counts.users} users, ${counts.shares} shares, ${counts.shares * counts.grantsPerShare} grants`;
      return [
        {
          name: `backup download (${config}, ${Math.round(file.length / 1024)} KiB)`,
          value: backupMs,
          unit: 'ms',
          baseline: kdfMs,
          baselineName: 'key derivation alone',
          target: `under ${targetMs} ms`,
          ok: backupMs < targetMs,
        },
        {
          name: `backup inspect (${config})`,
          value: inspectMs,
          unit: 'ms',
          baseline: kdfMs,
          baselineName: 'key derivation alone',
          target: `under ${targetMs} ms`,
          ok: inspectMs < targetMs,
        },
      ];
    } finally {
      await session.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
