import type { DiskVerdictReason, StorageDisk } from '../../../../shared/src/api/storage/storage.ts';
import type { DiskProbe } from '../../host/disks/disk-probe.ts';
import type { BlockDevice } from '../../host/zfs/lsblk.ts';
import type { SmartState } from '../../host/zfs/smartctl.ts';
import { leafNames } from '../../host/zfs/zpool-status.ts';
import type { ZfsDriver } from '../../host/zfs/zfs-driver.ts';

/** What the guard knows about one disk. */
export interface DiskFacts {
  device: BlockDevice;
  partitions: BlockDevice[];
  signatures: string[];
  systemDisk: boolean;
  /** Pools using the disk or one of its partitions. */
  pools: string[];
}

/** Every reason against using the disk for a new pool; empty means usable. */
export function diskReasons(facts: DiskFacts, minBytes: number): DiskVerdictReason[] {
  const reasons: DiskVerdictReason[] = [];
  const { device, partitions } = facts;
  if (facts.systemDisk) reasons.push({ reason: 'systemDisk', detail: 'holds the running system' });
  const mounts = [device, ...partitions].flatMap((d) => d.mountpoints);
  if (mounts.length > 0) reasons.push({ reason: 'mounted', detail: mounts.join(', ') });
  if (facts.pools.length > 0) reasons.push({ reason: 'inPool', detail: facts.pools.join(', ') });
  const signatures = [...new Set([...facts.signatures, ...partitions.map((p) => p.fsType).filter((t): t is string => t !== null)])];
  if (signatures.length > 0) reasons.push({ reason: 'signature', detail: signatures.join(', ') });
  if (partitions.length > 0) reasons.push({ reason: 'partitioned', detail: partitions.map((p) => p.name).join(', ') });
  if (device.sizeBytes < minBytes) reasons.push({ reason: 'tooSmall', detail: `${device.sizeBytes} bytes, at least ${minBytes} needed` });
  if (device.readOnly) reasons.push({ reason: 'readOnly', detail: 'the device is read-only' });
  return reasons;
}

/** How a plan step uses disks that already belong to a pool: importing it, or exporting it. */
export interface MemberUse {
  use: 'import' | 'export';
  pool: string;
}

/**
 * Why a pool member must not be imported or exported now, or null. A ZFS label, partitions
 * (OpenZFS partitions whole disks) and the size are expected on a member; the system disk, a
 * mount outside ZFS, and membership are not: importing needs the disk in no imported pool,
 * exporting needs it still in that pool.
 */
export function memberRefusal(reasons: DiskVerdictReason[], pools: string[], member: MemberUse): string | null {
  const blocking = reasons.filter((r) => r.reason === 'systemDisk' || r.reason === 'mounted');
  if (blocking.length > 0) return blocking.map((r) => `${r.reason}: ${r.detail}`).join('; ');
  if (member.use === 'import' && pools.length > 0) return `already in the imported pool ${pools.join(', ')}`;
  if (member.use === 'export' && !pools.includes(member.pool)) return `no longer in the pool ${member.pool}`;
  return null;
}

export interface DiskGuardDeps {
  probe: DiskProbe;
  /** Only the pools' status: the installer's medium may have no ZFS and answers none. */
  zfs: Pick<ZfsDriver, 'status'>;
  minDiskBytes: number;
}

/** Gathers the facts of every candidate disk, fresh on each call (plans recheck before every command). */
export class DiskGuard {
  constructor(private readonly deps: DiskGuardDeps) {}

  async facts(): Promise<DiskFacts[]> {
    const { probe, zfs } = this.deps;
    const [devices, system, pools] = await Promise.all([probe.blockDevices(), probe.systemDevices(), zfs.status()]);
    const byName = new Map(devices.map((d) => [d.name, d]));
    const diskOf = (real: string): string | null => {
      const device = devices.find((d) => d.path === real);
      if (!device) return null;
      return device.type === 'part' && device.parent ? device.parent : device.name;
    };
    const poolsByDisk = new Map<string, string[]>();
    for (const pool of pools) {
      for (const leaf of leafNames(pool)) {
        const real = await probe.resolveVdevName(leaf);
        const disk = real ? diskOf(real) : null;
        if (disk) poolsByDisk.set(disk, [...(poolsByDisk.get(disk) ?? []), pool.name]);
      }
    }
    const systemDisks = new Set([...system].map(diskOf).filter((d): d is string => d !== null));
    const candidates = devices.filter((d) => probe.isCandidate(d));
    return Promise.all(
      candidates.map(async (device) => ({
        device,
        partitions: device.children.map((n) => byName.get(n)).filter((d): d is BlockDevice => d !== undefined),
        signatures: await probe.signatures(device.path),
        systemDisk: systemDisks.has(device.name),
        pools: [...new Set(poolsByDisk.get(device.name) ?? [])],
      })),
    );
  }

  /** Disk names (as the guard lists them) of vdev leaves as zpool prints them; leaves that resolve to no disk are left out. */
  async diskNames(leaves: string[]): Promise<string[]> {
    const devices = await this.deps.probe.blockDevices();
    const names = new Set<string>();
    for (const leaf of leaves) {
      const real = await this.deps.probe.resolveVdevName(leaf);
      const device = devices.find((d) => d.path === real);
      if (device) names.add(device.type === 'part' && device.parent ? device.parent : device.name);
    }
    return [...names];
  }

  async verdicts(): Promise<Map<string, { facts: DiskFacts; reasons: DiskVerdictReason[] }>> {
    const all = await this.facts();
    return new Map(all.map((f) => [f.device.name, { facts: f, reasons: diskReasons(f, this.deps.minDiskBytes) }]));
  }

  async list(smart: (path: string) => Promise<SmartState>): Promise<StorageDisk[]> {
    const verdicts = await this.verdicts();
    return Promise.all(
      [...verdicts.values()].map(async ({ facts, reasons }) => {
        const s = await smart(facts.device.path);
        return {
          name: facts.device.name,
          path: facts.device.path,
          sizeBytes: facts.device.sizeBytes,
          model: facts.device.model,
          serial: facts.device.serial,
          rotational: facts.device.rotational,
          usable: reasons.length === 0,
          reasons,
          smart: { available: s.available, health: s.health, temperatureC: s.temperatureC, powerOnHours: s.powerOnHours, lastSelfTest: s.lastSelfTest },
        };
      }),
    );
  }
}
