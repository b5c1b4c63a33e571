import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../../core/logger.ts';
import { daemonFs } from '../../../host/share-fs/daemon-fs.ts';
import type { TrashRow } from '../trash/trash.model.ts';
import { operationJob, type OperationJobParams } from './operations.jobs.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });

describe('file operation job: entries arriving in another share', () => {
  let root: string;
  const shares: Record<number, string> = {};
  let arrived: { shareId: number; paths: string[] }[];
  const run = (params: Omit<OperationJobParams, 'permanent' | 'username'>) =>
    operationJob({
      shareRoot: async (id) => shares[id] as string,
      shareName: async (id) => `share ${id}`,
      bin: { rows: null as unknown as typeof TrashRow, clock: { now: () => new Date() } as never },
      logger,
      forget: async () => undefined,
      folderChanged: () => undefined,
      arrived: (shareId, paths) => arrived.push({ shareId, paths }),
      fsFor: async () => daemonFs,
    }).run({
      jobId: 1,
      params: { ...params, permanent: false, username: 'admin' },
      userId: 1,
      progress: () => undefined,
      signal: new AbortController().signal,
      logger,
    });

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-op-job-')));
    for (const id of [1, 2]) {
      shares[id] = path.join(root, `share-${id}`);
      mkdirSync(path.join(shares[id], 'in'), { recursive: true });
      writeFileSync(path.join(shares[id], `${id}.txt`), String(id));
    }
    arrived = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('announces what a move brought from another share, once the moves are done', async () => {
    await run({ op: 'move', sources: [{ shareId: 1, path: '1.txt' }], target: { shareId: 2, path: 'in' }, onConflict: 'fail' });
    expect(arrived).to.deep.equal([{ shareId: 2, paths: [path.join(shares[2] as string, 'in', '1.txt')] }]);
  });

  it('announces nothing for a move within one share or a copy (a copy is made as new)', async () => {
    await run({ op: 'move', sources: [{ shareId: 2, path: '2.txt' }], target: { shareId: 2, path: 'in' }, onConflict: 'fail' });
    await run({ op: 'copy', sources: [{ shareId: 1, path: '1.txt' }], target: { shareId: 2, path: '' }, onConflict: 'rename' });
    expect(arrived).to.deep.equal([]);
  });
});
