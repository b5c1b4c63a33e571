import type { CommandRunner } from '../command-runner.ts';

/** What the running ZFS can do; zfs-fuse (pool version 23) lacks several OpenZFS 2.x features. */
export interface ZfsCapabilities {
  /** `zfs version` answers: OpenZFS 0.8 or later. */
  openzfs: boolean;
  /** `zpool list -p` prints exact bytes. */
  parsableLists: boolean;
  /** `zpool scrub -p` pauses a scrub. */
  scrubPause: boolean;
  /** `zpool import -o readonly=on`. */
  readOnlyImport: boolean;
  /** Snapshots are readable under `<mountpoint>/.zfs/snapshot/<name>`; else through a clone. */
  snapshotDir: boolean;
  /** `zfs holds` lists hold tags; else only the `userrefs` count is known. */
  listHolds: boolean;
}

const unknownOption = /invalid option|unrecognized option|usage:/i;

/**
 * Probes once by asking the tools themselves: an option the tool does not know answers
 * "invalid option" with its usage. The probes name a pool that cannot exist, so nothing changes.
 */
export async function probeCapabilities(runner: CommandRunner): Promise<ZfsCapabilities> {
  const probe = async (argv: string[]) => {
    const r = await runner.read(argv, { allowFailure: true, timeoutMs: 15_000 });
    return !unknownOption.test(r.stderr);
  };
  const version = await runner.read(['zfs', 'version'], { allowFailure: true, timeoutMs: 15_000 });
  const openzfs = version.exitCode === 0 && /zfs-\d/.test(version.stdout);
  const absent = 'cellar-capability-probe';
  const [parsableLists, scrubPause] = await Promise.all([probe(['zpool', 'list', '-H', '-p', '-o', 'name']), probe(['zpool', 'scrub', '-p', absent])]);
  return { openzfs, parsableLists, scrubPause, readOnlyImport: openzfs, snapshotDir: openzfs, listHolds: openzfs };
}
