/**
 * The grammar of the forced command a replication pairing's key may run on the target (issue 33).
 * sshd hands the client's wish over in SSH_ORIGINAL_COMMAND; it is hostile text, so only two
 * fixed forms are accepted, with exactly one space between the words:
 *
 *   receive <suffix>   `zfs receive` of the stream on stdin into <parent>/<suffix>
 *   list <suffix>      the snapshots of <parent>/<suffix>: guid, createtxg and creation each
 *
 * The suffix is mapped strictly below the parent the target's administrator chose at pairing:
 * parts of letters, digits and `_ - . :`, each beginning with a letter or digit (so no `.`/`..`
 * part, no leading `-` read as an option), joined by single `/`, no `@` or `#` (a snapshot or
 * bookmark is not a dataset), a limited depth and length. Nothing is ever handed to a shell.
 */

export type ReceiveVerb = 'receive' | 'list';

export interface ReceiveRequest {
  verb: ReceiveVerb;
  /** The full dataset name below the pairing's parent. */
  dataset: string;
}

export interface ReceiveRefusal {
  refused: string;
}

const part = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const form = /^(receive|list) ([^ ]+)$/;
/** The longest suffix and the deepest nesting below the parent. */
export const maxSuffixLength = 200;
export const maxSuffixDepth = 8;

/** Whether a dataset name (a pool or a dataset) is made only of well-formed parts. */
export function isDatasetName(name: string): boolean {
  const parts = name.split('/');
  return name.length <= 255 && parts.every((p) => part.test(p));
}

/** Reads SSH_ORIGINAL_COMMAND against the grammar; answers the request or why it is refused. */
export function parseReceiveCommand(original: string | undefined, parent: string): ReceiveRequest | ReceiveRefusal {
  if (!isDatasetName(parent)) return { refused: 'the pairing has no valid parent dataset' };
  if (original === undefined || original === '') return { refused: 'no command given: only "receive <dataset>" and "list <dataset>" are allowed' };
  const match = form.exec(original);
  if (!match) return { refused: 'only "receive <dataset>" and "list <dataset>" are allowed' };
  const [, verb, suffix] = match as unknown as [string, ReceiveVerb, string];
  if (suffix.length > maxSuffixLength) return { refused: `the dataset name is longer than ${maxSuffixLength} characters` };
  const parts = suffix.split('/');
  if (parts.length > maxSuffixDepth) return { refused: `the dataset is nested deeper than ${maxSuffixDepth} levels` };
  if (!parts.every((p) => part.test(p))) {
    return { refused: 'the dataset name may hold only letters, digits and _ - . : in parts joined by /, each beginning with a letter or digit' };
  }
  return { verb, dataset: `${parent}/${suffix}` };
}

/** The zfs command of a request, as an argument array. */
export function zfsArgs(request: ReceiveRequest): string[] {
  // No -F: a stream never rolls back or destroys what the target holds. (-u, to leave it
  // unmounted, is missing in zfs-fuse; the received dataset mounts below the parent's mountpoint.)
  if (request.verb === 'receive') return ['zfs', 'receive', request.dataset];
  // Guids (to match snapshots across boxes) need `zfs get -p`: zfs-fuse's `zfs list` rounds them.
  return ['zfs', 'get', '-H', '-p', '-r', '-d', '1', '-o', 'name,property,value', 'guid,createtxg,creation', request.dataset];
}
