/** A block device as lsblk reports it, flattened (partitions carry their disk in `parent`). */
export interface BlockDevice {
  name: string;
  path: string;
  type: string;
  sizeBytes: number;
  readOnly: boolean;
  removable: boolean;
  rotational: boolean;
  model: string | null;
  serial: string | null;
  wwn: string | null;
  transport: string | null;
  fsType: string | null;
  partTableType: string | null;
  mountpoints: string[];
  parent: string | null;
  /** Names of the partitions (and holders) below it. */
  children: string[];
}

interface RawDevice {
  name?: string;
  path?: string;
  type?: string;
  size?: number | string;
  ro?: boolean | string;
  rm?: boolean | string;
  rota?: boolean | string;
  model?: string | null;
  serial?: string | null;
  wwn?: string | null;
  tran?: string | null;
  fstype?: string | null;
  pttype?: string | null;
  mountpoint?: string | null;
  mountpoints?: (string | null)[];
  pkname?: string | null;
  children?: RawDevice[];
}

// Older lsblk print booleans as "0"/"1".
const flag = (v: boolean | string | undefined) => v === true || v === '1';

/** Parses `lsblk -J -b -O` (or a subset of its columns) into a flat list, disks before their partitions. */
export function parseLsblk(json: string): BlockDevice[] {
  const parsed = JSON.parse(json) as { blockdevices?: RawDevice[] };
  const out: BlockDevice[] = [];
  const walk = (raw: RawDevice, parent: string | null) => {
    const name = raw.name ?? '';
    const mounts = (raw.mountpoints ?? [raw.mountpoint ?? null]).filter((m): m is string => typeof m === 'string' && m !== '');
    out.push({
      name,
      path: raw.path ?? `/dev/${name}`,
      type: raw.type ?? 'disk',
      sizeBytes: Number(raw.size ?? 0),
      readOnly: flag(raw.ro),
      removable: flag(raw.rm),
      rotational: flag(raw.rota),
      model: raw.model?.trim() || null,
      serial: raw.serial?.trim() || null,
      wwn: raw.wwn ?? null,
      transport: raw.tran ?? null,
      fsType: raw.fstype ?? null,
      partTableType: raw.pttype ?? null,
      mountpoints: mounts,
      parent: raw.pkname ?? parent,
      children: (raw.children ?? []).map((c) => c.name ?? ''),
    });
    for (const child of raw.children ?? []) walk(child, name);
  };
  for (const raw of parsed.blockdevices ?? []) walk(raw, null);
  return out;
}

/** Signature types `wipefs -n -J <dev>` finds (file systems, partition tables, RAID and ZFS labels). */
export function parseWipefs(json: string): string[] {
  if (json.trim() === '') return [];
  const parsed = JSON.parse(json) as { signatures?: { type?: string }[] };
  return [...new Set((parsed.signatures ?? []).map((s) => s.type ?? 'unknown'))];
}
