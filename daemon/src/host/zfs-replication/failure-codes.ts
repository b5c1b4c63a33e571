/** Why a replication run ended without its snapshot on the target; each has its own notification. */
export type ReplicationFailureCode =
  /** The target answered with another host key than the pinned one. */
  | 'host-key-changed'
  /** The pinned known_hosts file has no key for the target at all. */
  | 'host-key-unknown'
  /** The target no longer accepts the pairing's key (the pairing was ended there). */
  | 'pairing-refused'
  /** No connection could be made (address, port, firewall, box off). */
  | 'target-unreachable'
  /** The connection went away while the stream was running. */
  | 'connection-lost'
  /** The target pool ran out of space while receiving. */
  | 'target-pool-full'
  /** The target's forced command refused what was asked (another command or dataset). */
  | 'refused-by-target'
  /** Source and target share no snapshot, so nothing can be sent incrementally. */
  | 'no-common-snapshot'
  /** The target's copy was changed since its newest snapshot (by hand or by reading it with atime on). */
  | 'target-modified'
  /** A full send found a dataset of that name already on the target. */
  | 'target-exists'
  /** The source has no snapshot to send. */
  | 'no-source-snapshot'
  /** The run was cancelled. */
  | 'cancelled'
  /** zfs send or zfs receive failed for another reason; the detail says which. */
  | 'send-failed';

export interface ReplicationFailure {
  ok: false;
  code: ReplicationFailureCode;
  /** The tools' own words (stderr), for the run's log; never holds a secret. */
  detail: string;
  bytes: number;
}

/** How ssh ended: its exit code (255 is ssh's own failure, else the remote command's) and stderr. */
export interface SshOutcome {
  exitCode: number | null;
  stderr: string;
  /** Whether any byte of the stream had gone out before it ended. */
  streamStarted: boolean;
}

/**
 * Reads ssh's exit and stderr into a code. ssh exits 255 for its own failures (host key,
 * authentication, connection) and otherwise with the remote command's code: 2 with
 * `cellar: refused:` from the forced command, 1 from zfs receive with its message. The
 * messages matched are those of OpenSSH and of zfs receive (zfs-fuse and OpenZFS word them alike).
 */
export function classifySsh(outcome: SshOutcome): ReplicationFailureCode | null {
  const { exitCode, stderr } = outcome;
  if (exitCode === 0) return null;
  if (exitCode === 255) {
    if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i.test(stderr)) return 'host-key-changed';
    if (/Host key verification failed|No .*host key is known/i.test(stderr)) return 'host-key-unknown';
    if (/Permission denied/i.test(stderr)) return 'pairing-refused';
    if (!outcome.streamStarted && /Connection refused|Connection timed out|No route to host|Network is unreachable|Could not resolve/i.test(stderr)) {
      return 'target-unreachable';
    }
    return 'connection-lost';
  }
  if (/cellar: refused: /.test(stderr)) return 'refused-by-target';
  if (/out of space|No space left|quota exceeded/i.test(stderr)) return 'target-pool-full';
  if (/does not\s+match incremental source|does not exist.*incremental|destination .* does not exist/i.test(stderr)) return 'no-common-snapshot';
  if (/has been modified\s+since most recent snapshot/i.test(stderr)) return 'target-modified';
  if (/destination .* exists|must specify -F/i.test(stderr)) return 'target-exists';
  // Killed by a signal on our side or the channel closed without a code: the link went away.
  if (exitCode === null) return 'connection-lost';
  return 'send-failed';
}
