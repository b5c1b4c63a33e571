import type { CommandRunner } from '../command-runner.ts';
import type { TargetSnapshot } from './target-retention.ts';

export interface SourceSnapshot extends TargetSnapshot {
  /** Holds on the snapshot (`userrefs`); zfs-fuse cannot list their tags (`zfs holds` is missing). */
  userrefs: number;
}

/** The properties read per snapshot: guid matches snapshots across boxes, createtxg orders them. */
export const snapshotProperties = ['guid', 'createtxg', 'creation', 'userrefs'] as const;

/**
 * `zfs get -H -p -r -d 1` of a dataset, run alike on both sides: zfs-fuse's `zfs list` prints a
 * guid rounded ("9.74E") and has no `-p`, while `zfs get -p` prints exact numbers on every ZFS.
 */
export const snapshotGetArgv = (dataset: string, properties: readonly string[] = snapshotProperties) => [
  'zfs',
  'get',
  '-H',
  '-p',
  '-r',
  '-d',
  '1',
  '-o',
  'name,property,value',
  properties.join(','),
  dataset,
];

/** Parses the `name<TAB>property<TAB>value` lines into the snapshots (the dataset's own lines are left out). */
export function parseSnapshotGet(text: string): SourceSnapshot[] {
  const byName = new Map<string, SourceSnapshot>();
  for (const line of text.split('\n')) {
    const [name, property, value] = line.split('\t');
    if (!name?.includes('@') || value === undefined) continue;
    const snap = byName.get(name) ?? { name, guid: '', createtxg: 0, creation: 0, userrefs: 0 };
    if (property === 'guid') snap.guid = value;
    // A value zfs does not know prints as "-"; it counts as none.
    else if (property === 'createtxg' || property === 'creation' || property === 'userrefs') snap[property] = Number(value) || 0;
    byName.set(name, snap);
  }
  return [...byName.values()].filter((s) => s.guid !== '');
}

export const missingDataset = /dataset does not exist/;

/** The source dataset's snapshots; none when it has none. */
export async function listSourceSnapshots(runner: CommandRunner, dataset: string): Promise<SourceSnapshot[]> {
  const r = await runner.read(snapshotGetArgv(dataset), { timeoutMs: 120_000 });
  return parseSnapshotGet(r.stdout);
}
