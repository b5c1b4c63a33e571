import { expect } from 'chai';
import { createLogger } from './logger.ts';
import { Scheduler } from './scheduler.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logger = createLogger({ level: 'error', console: false, sinks: [] });

describe('Scheduler', () => {
  it('runs a task at start and again when the clock says it is due', async () => {
    let now = 1_000_000;
    const scheduler = new Scheduler({ clock: { now: () => now }, logger, tickMs: 5 });
    let runs = 0;
    scheduler.every('count', 60_000, async () => {
      runs++;
    });
    scheduler.start();
    await sleep(30);
    expect(runs).to.equal(1);
    now += 59_999;
    await sleep(30);
    expect(runs).to.equal(1);
    now += 1;
    await sleep(30);
    expect(runs).to.equal(2);
    await scheduler.stop();
  });

  it('skips a run while the last one still runs', async () => {
    let now = 0;
    const scheduler = new Scheduler({ clock: { now: () => now }, logger, tickMs: 5 });
    let runs = 0;
    let release!: () => void;
    scheduler.every('slow', 1000, async () => {
      runs++;
      await new Promise<void>((resolve) => (release = resolve));
    });
    scheduler.start();
    await sleep(20);
    now += 5000;
    await sleep(30);
    expect(runs).to.equal(1);
    expect(await scheduler.runNow('slow')).to.equal(false);
    release();
    await sleep(10);
    const second = scheduler.runNow('slow');
    await sleep(10);
    expect(runs).to.equal(2);
    release();
    expect(await second).to.equal(true);
    await scheduler.stop();
  });

  it('keeps running after a failed run and aborts running work on stop', async () => {
    const scheduler = new Scheduler({ clock: { now: () => 0 }, logger, tickMs: 1000 });
    let attempts = 0;
    scheduler.every('flaky', 1000, async () => {
      attempts++;
      throw new Error('disk busy');
    });
    let aborted = false;
    scheduler.every('long', 1000, (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve()))));
    scheduler.start();
    await sleep(10);
    expect(await scheduler.runNow('flaky')).to.equal(true);
    expect(attempts).to.equal(2);
    await scheduler.stop();
    expect(aborted).to.equal(true);
  });
  it('stops without work that ignores its signal, after the grace time', async () => {
    const scheduler = new Scheduler({ clock: { now: () => 0 }, logger, tickMs: 5 });
    let started = false;
    scheduler.every('stuck', 60_000, () => {
      started = true;
      return new Promise(() => undefined);
    });
    scheduler.start();
    while (!started) await new Promise((r) => setTimeout(r, 5));
    const before = Date.now();
    await scheduler.stop(50);
    expect(Date.now() - before).to.be.below(1000);
  });
});
