/** A paired target box as the source reaches it: its sshd, the pairing's key and the pinned host key. */
export interface ReplicationTarget {
  host: string;
  port: number;
  /** The target's replication account, whose only key line is the forced command. */
  user: string;
  /** The pairing's private key (0600). */
  keyPath: string;
  /** A known_hosts file holding only the target's pinned host key. */
  knownHostsPath: string;
}

// The target checks the suffix against its full grammar; this coarse check only keeps words,
// spaces and options out of the one command line ssh sends.
const suffixForm = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,199}$/;
const hostForm = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;

/**
 * The ssh argument array for one forced-command request. The host key is the pinned one only
 * (StrictHostKeyChecking=yes against a known_hosts of its own), only the pairing's key is offered,
 * nothing asks on a terminal, and ServerAlive probes end a session whose link went away within
 * about 15 s instead of TCP's many minutes. `--` keeps a host from being read as an option.
 */
export function sshArgv(target: ReplicationTarget, verb: 'receive' | 'list', suffix: string): string[] {
  if (!suffixForm.test(suffix) || suffix.includes('//')) throw new Error(`not a dataset suffix: ${JSON.stringify(suffix)}`);
  if (!hostForm.test(target.host) || !Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
    throw new Error(`not a target address: ${JSON.stringify(`${target.host}:${target.port}`)}`);
  }
  return [
    'ssh',
    ...['-i', target.keyPath, '-p', String(target.port), '-l', target.user, '-T'],
    ...['-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'StrictHostKeyChecking=yes'],
    ...['-o', `UserKnownHostsFile=${target.knownHostsPath}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'UpdateHostKeys=no'],
    ...['-o', 'ConnectTimeout=15', '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=3'],
    // ZFS streams of files already compressed gain nothing and would cost the CPU the send needs.
    ...['-o', 'Compression=no', '-o', 'ControlMaster=no', '-o', 'ControlPath=none'],
    '--',
    target.host,
    `${verb} ${suffix}`,
  ];
}
