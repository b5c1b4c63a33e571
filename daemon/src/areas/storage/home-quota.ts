/** The quota in force: the user's own, none for 0, else the default. */
export function effectiveQuota(own: number | null, defaultQuota: number | null): number | null {
  if (own === null) return defaultQuota;
  return own === 0 ? null : own;
}

/** The zfs property that holds a home's quota (refquota: snapshots do not count against the user). */
export const refquota = (bytes: number | null) => `refquota=${bytes === null ? 'none' : bytes}`;
