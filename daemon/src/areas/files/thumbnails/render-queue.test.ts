import { expect } from 'chai';
import { RenderQueue } from './render-queue.ts';

describe('RenderQueue', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('runs at most `concurrency` renders at once, each key once', async () => {
    let active = 0;
    let peak = 0;
    const done: string[] = [];
    const queue = new RenderQueue(2, () => undefined);
    const work = (key: string) => async () => {
      active++;
      peak = Math.max(peak, active);
      await tick();
      active--;
      done.push(key);
    };
    expect(queue.add('a', work('a'))).to.equal(true);
    expect(queue.add('a', work('a'))).to.equal(false);
    for (const key of ['b', 'c', 'd']) queue.add(key, work(key));
    expect(queue.has('d')).to.equal(true);
    while (done.length < 4) await queue.idle();
    expect(peak).to.equal(2);
    expect(done.sort()).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(queue.has('a')).to.equal(false);
  });

  it('reports a failed render and keeps going', async () => {
    const failed: string[] = [];
    const queue = new RenderQueue(1, (key) => failed.push(key));
    let ran = false;
    queue.add('bad', () => Promise.reject(new Error('boom')));
    queue.add('good', async () => {
      ran = true;
    });
    while (!ran) await queue.idle();
    expect(failed).to.deep.equal(['bad']);
  });

  it('drops waiting renders on close', async () => {
    const queue = new RenderQueue(1, () => undefined);
    const ran: string[] = [];
    queue.add('first', async () => {
      await tick();
      ran.push('first');
    });
    queue.add('second', async () => void ran.push('second'));
    await queue.close();
    expect(ran).to.deep.equal(['first']);
    expect(queue.add('third', async () => undefined)).to.equal(false);
  });
});
