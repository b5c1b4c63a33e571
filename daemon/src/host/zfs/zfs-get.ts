/** One dataset or snapshot with the properties asked for; "-" (not applicable) is left out. */
export interface ZfsObject {
  name: string;
  props: Map<string, string>;
}

/**
 * Parses `zfs get -H -p -o name,property,value ...` (works the same on OpenZFS and zfs-fuse:
 * bytes and creation as epoch seconds). Objects come back in the order ZFS printed them.
 */
export function parseZfsGet(text: string): ZfsObject[] {
  const byName = new Map<string, ZfsObject>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const first = line.indexOf('\t');
    const second = line.indexOf('\t', first + 1);
    if (first < 0 || second < 0) continue;
    const name = line.slice(0, first);
    const property = line.slice(first + 1, second);
    const value = line.slice(second + 1);
    let object = byName.get(name);
    if (!object) {
      object = { name, props: new Map() };
      byName.set(name, object);
    }
    if (value !== '-') object.props.set(property, value);
  }
  return [...byName.values()];
}

/** A numeric property in bytes (or a count); null when absent; quotas of 0 mean none. */
export function numberProp(object: ZfsObject, property: string): number | null {
  const value = object.props.get(property);
  if (value === undefined || value === 'none') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
