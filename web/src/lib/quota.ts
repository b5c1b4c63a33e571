const gib = 1024 ** 3;

/** Quotas are entered in GB (binary, as the rest of the UI shows sizes) with up to two decimals. */
export function bytesToGb(bytes: number): number {
  return Math.round((bytes / gib) * 100) / 100;
}

export function gbToBytes(gb: number): number {
  return Math.round(gb * gib);
}
