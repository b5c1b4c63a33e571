/** What the guard writes with: the daemon's logger once it is built, standard error before. */
export type RejectionLog = (message: string, fields: { component: string; error: string }) => void;

/**
 * A promise rejected with nobody to catch it is a bug in the daemon, never a reason to stop it:
 * Node's default would exit, and every share and the web desktop with it (and again at each start
 * when the cause is on disk). It is logged instead. Answers a function that removes the guard.
 */
export function guardRejections(log: RejectionLog): () => void {
  const onRejection = (reason: unknown) =>
    log('unhandled rejection', { component: 'daemon', error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) });
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
