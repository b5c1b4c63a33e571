import { parseZfsCount } from './sizes.ts';

export type VdevRole = 'data' | 'logs' | 'cache' | 'spares' | 'special' | 'dedup';

export interface VdevNode {
  name: string;
  /** mirror, raidz1, raidz2, raidz3, draid, disk (a leaf), file, ... */
  type: string;
  state: string;
  readErrors: number;
  writeErrors: number;
  checksumErrors: number;
  /** Trailing text such as "(resilvering)" or "was /dev/sdc1". */
  note: string | null;
  children: VdevNode[];
}

export interface VdevGroup {
  role: VdevRole;
  vdevs: VdevNode[];
}

export type ScanFunction = 'scrub' | 'resilver';
export type ScanState = 'none' | 'scanning' | 'paused' | 'finished' | 'canceled';

export interface ScanInfo {
  function: ScanFunction | null;
  state: ScanState;
  /** Percent done while scanning or paused. */
  percent: number | null;
  /** Errors found by the last finished scan. */
  errors: number | null;
  /** The scan line(s) as the tool printed them. */
  text: string;
}

export interface PoolStatus {
  name: string;
  /** Pool id (import scans only). */
  id: string | null;
  state: string;
  status: string | null;
  action: string | null;
  scan: ScanInfo;
  root: VdevNode | null;
  groups: VdevGroup[];
  errors: string | null;
}

const sectionNames = new Set<VdevRole>(['logs', 'cache', 'spares', 'special', 'dedup']);

/**
 * Parses `zpool status` (OpenZFS 2.x and zfs-fuse) and `zpool import` scans (same layout,
 * the config lines carry only a state). Several pools in one text are answered in order.
 */
export function parseZpoolStatus(text: string): PoolStatus[] {
  const blocks = text.split(/^(?=\s*pool: )/m).filter((b) => /^\s*pool: /.test(b));
  return blocks.map(parseBlock);
}

function parseBlock(block: string): PoolStatus {
  const fields = new Map<string, string>();
  const lines = block.split('\n');
  let current: string | null = null;
  let configStart = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    // Field names sit right-aligned in the first columns ("  pool:", "   see:"); continuation lines are indented further.
    const key = /^ {0,8}([a-z]+):(?:\s(.*))?$/.exec(line);
    if (key) {
      current = key[1] ?? null;
      if (current === 'config') {
        configStart = i + 1;
        break;
      }
      if (current) fields.set(current, (key[2] ?? '').trim());
      continue;
    }
    if (current && /^\s/.test(line) && line.trim() !== '') fields.set(current, `${fields.get(current)}\n${line.trim()}`);
  }
  const rest = configStart >= 0 ? lines.slice(configStart) : [];
  const errorsLine = rest.find((l) => /^errors: /.test(l));
  if (errorsLine) fields.set('errors', errorsLine.slice('errors: '.length).trim());
  const { root, groups } = configStart >= 0 ? parseConfig(rest) : { root: null, groups: [] };
  return {
    name: fields.get('pool') ?? '',
    id: fields.get('id') ?? null,
    state: fields.get('state') ?? 'UNKNOWN',
    status: fields.get('status') ?? null,
    action: fields.get('action') ?? null,
    scan: parseScan(fields.get('scan') ?? fields.get('scrub') ?? 'none requested'),
    root,
    groups,
    errors: fields.get('errors') ?? null,
  };
}

/** Parses the scan line of OpenZFS ("scan: scrub repaired 0B in ...") and zfs-fuse ("scrub: scrub completed after ..."). */
export function parseScan(text: string): ScanInfo {
  const fn: ScanFunction | null = /resilver/.test(text) ? 'resilver' : /scrub/.test(text) ? 'scrub' : null;
  const percent = /([\d.]+)% done/.exec(text);
  const errors = /with (\d+) errors/.exec(text);
  let state: ScanState = 'none';
  if (/none requested/.test(text)) state = 'none';
  else if (/paused/.test(text)) state = 'paused';
  else if (/in progress/.test(text)) state = 'scanning';
  else if (/cancell?ed|stopped/.test(text)) state = 'canceled';
  else if (/completed|repaired|resilvered/.test(text)) state = 'finished';
  return {
    function: state === 'none' ? null : fn,
    state,
    percent: percent ? Number(percent[1]) : state === 'finished' ? 100 : null,
    errors: errors ? Number(errors[1]) : null,
    text: text.trim(),
  };
}

interface Line {
  depth: number;
  cols: string[];
  note: string | null;
}

const countPattern = /^\d+(?:\.\d+)?[KMGTPE]?$/;

/**
 * The config tree. `zpool status` prints a tab before each line and two spaces per level;
 * documentation renders the tab as spaces, so depth is measured from the first line's indent.
 * Import scans print only name and state; a leaf may end with a note ("cannot open", "was /dev/sdc1").
 */
function parseConfig(lines: string[]): { root: VdevNode | null; groups: VdevGroup[] } {
  const rows: Line[] = [];
  let base = -1;
  for (const raw of lines) {
    if (raw.trim() === '') {
      if (rows.length > 0) break;
      continue;
    }
    if (!/^\s/.test(raw)) break;
    const indent = raw.length - raw.trimStart().length;
    if (/^NAME\s+STATE/.test(raw.trim())) {
      base = indent;
      continue;
    }
    if (base < 0) base = indent;
    const parts = raw.trim().split(/\s+/);
    const counters = parts.slice(2, 5);
    const hasCounters = counters.length === 3 && counters.every((c) => countPattern.test(c));
    const cols = hasCounters ? parts.slice(0, 5) : parts.slice(0, 2);
    const note = parts.slice(cols.length).join(' ');
    rows.push({ depth: indent - base, cols, note: note === '' ? null : note });
  }
  let root: VdevNode | null = null;
  const groups: VdevGroup[] = [];
  let group: VdevGroup | null = null;
  const stack: { depth: number; node: VdevNode }[] = [];
  for (const row of rows) {
    const name = row.cols[0] ?? '';
    if (row.depth === 0 && sectionNames.has(name as VdevRole) && row.cols.length === 1) {
      group = { role: name as VdevRole, vdevs: [] };
      groups.push(group);
      stack.length = 0;
      continue;
    }
    const node: VdevNode = {
      name,
      type: vdevType(name),
      state: row.cols[1] ?? 'UNKNOWN',
      readErrors: parseZfsCount(row.cols[2] ?? '0'),
      writeErrors: parseZfsCount(row.cols[3] ?? '0'),
      checksumErrors: parseZfsCount(row.cols[4] ?? '0'),
      note: row.note,
      children: [],
    };
    if (row.depth === 0 && !root) {
      root = node;
      root.type = 'pool';
      group = { role: 'data', vdevs: [] };
      groups.push(group);
      continue;
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.depth ?? 0) >= row.depth) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.node.children.push(node);
    else group?.vdevs.push(node);
    stack.push({ depth: row.depth, node });
  }
  for (const g of groups) for (const v of g.vdevs) if (v.children.length === 0 && v.type !== 'disk') v.type = 'disk';
  return { root, groups: groups.filter((g) => g.vdevs.length > 0 || g.role !== 'data') };
}

function vdevType(name: string): string {
  // Solaris-era outputs (and the documentation's examples) name them without the "-<n>" suffix.
  const match = /^(mirror|raidz[123]?|draid\d?[^-]*|spare|replacing|indirect)(?:-\d+)?$/.exec(name);
  if (!match) return 'disk';
  const kind = match[1] ?? 'disk';
  return kind === 'raidz' ? 'raidz1' : kind.startsWith('draid') ? 'draid' : kind;
}

/** Leaf device names of a pool (as printed: "sda", "loop0" or a full path). */
export function leafNames(pool: PoolStatus): string[] {
  const out: string[] = [];
  const walk = (n: VdevNode) => (n.children.length === 0 ? out.push(n.name) : n.children.forEach(walk));
  for (const g of pool.groups) g.vdevs.forEach(walk);
  return out;
}
