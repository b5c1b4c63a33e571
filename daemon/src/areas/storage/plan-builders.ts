import type { PoolLayout, StoragePlanKind } from '../../../../shared/src/api/storage/storage.ts';
import type { PlanWarning } from '../../../../shared/src/api/storage/plans.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { MemberUse } from './disk-guard.ts';

/** One command of a plan and the disks the guard rechecks right before it runs. */
export interface PlanStep {
  argv: string[];
  disks: string[];
  /** The disks are a pool's members (import, export); without it they must be free for a new pool. */
  member?: MemberUse;
}

/** What the service does after the commands succeeded (shares are registered or removed). */
export type PlanFollowUp =
  { kind: 'share.register'; name: string; dataset: string; services: ShareServices } | { kind: 'share.remove'; shareId: number } | null;

/** Which file services offer a share the plan registers. */
export interface ShareServices {
  smbEnabled: boolean;
  sftpEnabled: boolean;
}

export interface PlanBody {
  kind: StoragePlanKind;
  steps: PlanStep[];
  destroys: string[];
  warnings: PlanWarning[];
  after: PlanFollowUp;
}

export const minDisks: Record<PoolLayout, number> = { stripe: 1, mirror: 2, raidz1: 3, raidz2: 4 };

/** `zpool create` of a new pool mounted under `mountRoot`; every disk is rechecked before it. */
export function poolCreatePlan(pool: string, layout: PoolLayout, disks: { name: string; path: string }[], mountRoot: string): PlanBody {
  if (disks.length < minDisks[layout]) throw new ProblemError('storage.layout.invalid', { layout, minDisks: minDisks[layout] });
  const vdev = layout === 'stripe' ? [] : [layout];
  const warnings: PlanWarning[] =
    layout === 'stripe' && disks.length > 0
      ? [{ code: 'stripe.no_redundancy', params: {}, text: 'A stripe has no redundancy: losing any one disk loses the whole pool.' }]
      : [];
  return {
    kind: 'pool.create',
    steps: [{ argv: ['zpool', 'create', '-m', `${mountRoot}/${pool}`, pool, ...vdev, ...disks.map((d) => d.path)], disks: disks.map((d) => d.name) }],
    destroys: [],
    warnings,
    after: null,
  };
}

export function poolImportPlan(pool: string, readOnly: boolean, dirs: readonly string[], disks: string[]): PlanBody {
  const argv = ['zpool', 'import', ...dirs.flatMap((d) => ['-d', d]), ...(readOnly ? ['-o', 'readonly=on'] : []), pool];
  const warnings: PlanWarning[] = readOnly
    ? []
    : [{ code: 'import.writable', params: {}, text: 'The pool is imported for writing; import it read-only first to look at it without changing it.' }];
  return {
    kind: readOnly ? 'pool.import.readonly' : 'pool.import',
    steps: [{ argv, disks, member: { use: 'import', pool } }],
    destroys: [],
    warnings,
    after: null,
  };
}

export function poolExportPlan(pool: string, shareNames: string[], disks: string[]): PlanBody {
  const warnings: PlanWarning[] =
    shareNames.length > 0
      ? [
          {
            code: 'export.shares_unavailable',
            params: { shares: shareNames.join(', ') },
            text: `Shares on this pool become unavailable until it is imported again: ${shareNames.join(', ')}.`,
          },
        ]
      : [];
  return { kind: 'pool.export', steps: [{ argv: ['zpool', 'export', pool], disks, member: { use: 'export', pool } }], destroys: [], warnings, after: null };
}

export function diskReplacePlan(pool: string, oldDisk: string, newDisk: { name: string; path: string }): PlanBody {
  return {
    kind: 'disk.replace',
    steps: [{ argv: ['zpool', 'replace', pool, oldDisk, newDisk.path], disks: [newDisk.name] }],
    destroys: [],
    warnings: [{ code: 'replace.resilver', params: {}, text: 'The pool resilvers onto the new disk; its redundancy is reduced until that finishes.' }],
    after: null,
  };
}

/** A share's dataset name: `<pool>/shares/<slug>` with a slug ZFS accepts. */
export function shareDataset(pool: string, name: string): string {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${pool}/shares/${slug || 'share'}`;
}

/** Without `-p`, so a dataset that appeared meanwhile fails the plan instead of being taken over. */
export function shareCreatePlan(name: string, dataset: string, quotaBytes: number | null, parentExists: boolean, services: ShareServices): PlanBody {
  const parent = dataset.slice(0, dataset.lastIndexOf('/'));
  const steps: PlanStep[] = parentExists ? [] : [{ argv: ['zfs', 'create', parent], disks: [] }];
  steps.push({ argv: ['zfs', 'create', ...(quotaBytes ? ['-o', `quota=${quotaBytes}`] : []), dataset], disks: [] });
  return { kind: 'share.create', steps, destroys: [], warnings: [], after: { kind: 'share.register', name, dataset, services } };
}

/** Keeping data unregisters the share only; destroying lists every snapshot that goes with the dataset. */
export function shareDeletePlan(shareId: number, dataset: string, destroyData: boolean, snapshots: { fullName: string; holds: number }[]): PlanBody {
  if (!destroyData) {
    return {
      kind: 'share.delete',
      steps: [],
      destroys: [],
      warnings: [{ code: 'share.data_kept', params: { dataset }, text: `The dataset ${dataset} stays with its files and snapshots.` }],
      after: { kind: 'share.remove', shareId },
    };
  }
  const held = snapshots.filter((s) => s.holds > 0).map((s) => s.fullName);
  const warnings: PlanWarning[] = [
    { code: 'share.destroys', params: { dataset, count: snapshots.length }, text: `Destroys ${dataset} with every file and ${snapshots.length} snapshot(s).` },
  ];
  if (held.length > 0)
    warnings.push({
      code: 'share.held_snapshots',
      params: { snapshots: held.join(', ') },
      text: `Held snapshots make the destroy fail until released: ${held.join(', ')}.`,
    });
  return {
    kind: 'share.delete',
    // -f unmounts first (zfs-fuse refuses to destroy a mounted file system as busy).
    steps: [{ argv: ['zfs', 'destroy', '-f', '-r', dataset], disks: [] }],
    destroys: snapshots.map((s) => s.fullName),
    warnings,
    after: { kind: 'share.remove', shareId },
  };
}
