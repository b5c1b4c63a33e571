/**
 * Runs the work given to it one piece after another, in the order given: for a service whose
 * steps read the host or a file, decide, and write back, so that two requests at once cannot both
 * decide on what they read before the other wrote. A failed piece does not stop the next.
 */
export class OneAtATime {
  private queue: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
