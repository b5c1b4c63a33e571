import { expect } from 'chai';
import { PathBatch } from './path-batch.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PathBatch', () => {
  it('hands a burst over once, each path once, after the quiet time', async () => {
    const batches: string[][] = [];
    const batch = new PathBatch(async (paths) => void batches.push(paths), { debounceMs: 30, maxWaitMs: 1000 });
    for (const p of ['/a', '/b', '/a', '/c', '/b']) batch.add(p);
    await sleep(10);
    expect(batches).to.deep.equal([]);
    await sleep(60);
    expect(batches).to.deep.equal([['/a', '/b', '/c']]);
  });

  it('does not let a steady stream of events hold paths back longer than maxWaitMs', async () => {
    const batches: number[] = [];
    const started = Date.now();
    const batch = new PathBatch(async () => void batches.push(Date.now() - started), { debounceMs: 40, maxWaitMs: 100 });
    while (Date.now() - started < 250) {
      batch.add('/upload');
      await sleep(10);
    }
    // Events every 10 ms never leave 40 ms of quiet: only the maximum wait lets batches out.
    expect(batches.length).to.be.at.least(2);
    expect(batches[0]).to.be.within(90, 200);
    batch.close();
  });

  it('runs one batch at a time; paths seen meanwhile form the next', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batch = new PathBatch(
      async (paths) => {
        log.push(`start ${paths.join(' ')}`);
        if (paths[0] === '/first') await gate;
        log.push(`end ${paths.join(' ')}`);
      },
      { debounceMs: 5, maxWaitMs: 50 },
    );
    batch.add('/first');
    await sleep(20);
    batch.add('/second');
    await sleep(20);
    expect(log).to.deep.equal(['start /first']);
    release();
    await batch.settled();
    expect(log).to.deep.equal(['start /first', 'end /first', 'start /second', 'end /second']);
  });

  it('keeps going after a failing batch, and drops pending paths when closed', async () => {
    const seen: string[] = [];
    const batch = new PathBatch(
      async (paths) => {
        seen.push(...paths);
        if (paths.includes('/bad')) throw new Error('boom');
      },
      { debounceMs: 5, maxWaitMs: 50 },
    );
    batch.add('/bad');
    await batch.settled();
    batch.add('/good');
    await batch.settled();
    batch.add('/late');
    batch.close();
    await sleep(20);
    expect(seen).to.deep.equal(['/bad', '/good']);
  });
});
