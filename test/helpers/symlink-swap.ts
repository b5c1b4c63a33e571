import { Worker } from 'node:worker_threads';

/**
 * Issue 11's attacker: a share user with SFTP swaps `<folder>/a` for a link to `outside` in a
 * tight loop (rename, symlink, unlink, rename). The loop runs in its own thread, so its
 * synchronous calls never stall the event loop of the code under attack.
 */
const swapperSource = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { folder, outside, until, linkMs } = workerData;
const a = folder + '/a', aside = folder + '/a.aside';
let swaps = 0;
const pause = new Int32Array(new SharedArrayBuffer(4));
while (Date.now() < until) {
  try {
    fs.renameSync(a, aside);
    fs.symlinkSync(outside, a);
    if (linkMs > 0) Atomics.wait(pause, 0, 0, linkMs);
    fs.unlinkSync(a);
    fs.renameSync(aside, a);
    swaps++;
    // The folder stays real for a moment, so that operations get inside and meet a swap mid-way.
    Atomics.wait(pause, 0, 0, 1);
  } catch (err) {
    try { if (fs.lstatSync(a).isSymbolicLink()) fs.unlinkSync(a); } catch {}
    try { fs.renameSync(aside, a); } catch {}
  }
}
parentPort.postMessage(swaps);
`;

/**
 * Swaps for `ms` milliseconds; resolves with the number of swaps, `<folder>/a` a folder again.
 * `linkMs` keeps each link in place that long: work that looks names up late (a batch of paths
 * handed to a command) meets it far more often than a link gone in microseconds.
 */
export function swapFor(folder: string, outside: string, ms: number, linkMs = 0): Promise<number> {
  const worker = new Worker(swapperSource, { eval: true, workerData: { folder, outside, until: Date.now() + ms, linkMs } });
  return new Promise((resolve, reject) => {
    worker.once('message', (swaps: number) => resolve(swaps));
    worker.once('error', reject);
  });
}
