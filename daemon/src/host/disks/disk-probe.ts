import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../command-runner.ts';
import { parseLsblk, parseWipefs, type BlockDevice } from '../zfs/lsblk.ts';
import { parseSmartctl, type SmartState } from '../zfs/smartctl.ts';

const lsblkColumns = 'NAME,PATH,TYPE,SIZE,RO,RM,ROTA,MODEL,SERIAL,WWN,TRAN,FSTYPE,PTTYPE,MOUNTPOINTS,PKNAME';
/** Mount points whose disk is the system disk. */
const systemMounts = new Set(['/', '/boot', '/boot/efi', '/usr', '/var']);

export interface DiskProbeOptions {
  /** Loop devices count as disks (tests on sparse files); never on a box. */
  includeLoopDevices: boolean;
}

/** Read-only facts about the machine's block devices: lsblk, wipefs -n, /proc/mounts, /proc/swaps, smartctl. */
export class DiskProbe {
  constructor(
    private readonly runner: CommandRunner,
    private readonly options: DiskProbeOptions,
  ) {}

  async blockDevices(): Promise<BlockDevice[]> {
    const r = await this.runner.read(['lsblk', '-J', '-b', '-o', lsblkColumns]);
    return parseLsblk(r.stdout);
  }

  /** Whole disks a pool could use (not partitions, RAM disks or optical drives). */
  isCandidate(device: BlockDevice): boolean {
    if (device.type === 'loop') return this.options.includeLoopDevices && device.sizeBytes > 0;
    return device.type === 'disk' && !/^(zram|ram|fd)\d*/.test(device.name);
  }

  /** Signature types on the device itself (file systems, partition tables, ZFS and RAID labels). */
  async signatures(devicePath: string): Promise<string[]> {
    const r = await this.runner.read(['wipefs', '-n', '-J', devicePath], { allowFailure: true });
    return r.exitCode === 0 ? parseWipefs(r.stdout) : [];
  }

  /** Device paths mounted (or used as swap) at a system mount point, resolved to real paths. */
  async systemDevices(): Promise<Set<string>> {
    const out = new Set<string>();
    const mounts = await readFile('/proc/mounts', 'utf8').catch(() => '');
    for (const line of mounts.split('\n')) {
      const [source, target] = line.split(' ');
      if (source?.startsWith('/dev/') && target && systemMounts.has(target)) out.add(await realpath(source).catch(() => source));
    }
    const swaps = await readFile('/proc/swaps', 'utf8').catch(() => '');
    for (const line of swaps.split('\n').slice(1)) {
      const source = line.split(/\s+/)[0];
      if (source?.startsWith('/dev/')) out.add(await realpath(source).catch(() => source));
    }
    return out;
  }

  /** The real device path of a name as `zpool status` prints it (sda, loop0, a by-id name or a full path). */
  async resolveVdevName(name: string): Promise<string | null> {
    const candidates = name.startsWith('/') ? [name] : [path.join('/dev', name), path.join('/dev/disk/by-id', name), path.join('/dev/disk/by-partuuid', name)];
    for (const candidate of candidates) {
      const real = await realpath(candidate).catch(() => null);
      if (real) return real;
    }
    return null;
  }

  async smart(devicePath: string): Promise<SmartState> {
    const r = await this.runner.read(['smartctl', '--json', '-a', devicePath], { allowFailure: true, timeoutMs: 30_000 });
    try {
      return parseSmartctl(devicePath, r.stdout);
    } catch {
      return {
        device: devicePath,
        available: false,
        health: 'unknown',
        model: null,
        serial: null,
        temperatureC: null,
        powerOnHours: null,
        reallocatedSectors: null,
        pendingSectors: null,
        mediaErrors: null,
        lastSelfTest: null,
        message: r.stderr.trim() || 'smartctl gave no answer',
      };
    }
  }
}
