/** Measured runs after the warm-up; the best one counts, for ours and for the baseline alike. */
export const runs = 3;

async function best(measure: () => Promise<number>, better: (a: number, b: number) => boolean): Promise<number> {
  await measure();
  let top = await measure();
  for (let i = 1; i < runs; i++) {
    const next = await measure();
    if (better(next, top)) top = next;
  }
  return top;
}

/** The lowest of `runs` measures after a warm-up (times). */
export const fastest = (m: () => Promise<number>) => best(m, (a, b) => a < b);
/** The highest of `runs` measures after a warm-up (rates). */
export const highest = (m: () => Promise<number>) => best(m, (a, b) => a > b);

/** Milliseconds that `work` takes. */
export async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
