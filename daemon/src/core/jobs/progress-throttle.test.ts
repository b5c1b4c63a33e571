import { expect } from 'chai';
import { ProgressThrottle } from './progress-throttle.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ProgressThrottle', () => {
  it('publishes the first report at once and at most once per interval after that, ending with the latest', async () => {
    let value = 0;
    const seen: number[] = [];
    const throttle = new ProgressThrottle(100, () => seen.push(value));
    const started = performance.now();
    while (performance.now() - started < 350) {
      value++;
      throttle.report();
      await sleep(1);
    }
    const last = value;
    await sleep(150);
    throttle.close();
    // About 350 ms of reports every millisecond: the first, then one per 100 ms, never hundreds.
    expect(seen.length).to.be.within(2, 6);
    expect(seen[0]).to.equal(1);
    expect(seen.at(-1)).to.equal(last);
  });

  it('counts a state change as a publication and sends nothing after close', async () => {
    const seen: string[] = [];
    const throttle = new ProgressThrottle(80, () => seen.push('progress'));
    throttle.published();
    throttle.report();
    expect(seen).to.deep.equal([]);
    await sleep(120);
    expect(seen).to.deep.equal(['progress']);
    throttle.report();
    throttle.close();
    await sleep(120);
    expect(seen).to.deep.equal(['progress']);
  });
});
