import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log entry of a request carries. */
export interface RequestContext {
  requestId: string;
  userId?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
