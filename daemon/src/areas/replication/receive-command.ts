/**
 * The forced command of a replication pairing's key on the target (issue 33). The pairing's
 * authorized_keys line reads `restrict,command="<node> <this file> <pairing id> <parent dataset>"`,
 * so whatever the source asks for arrives here in SSH_ORIGINAL_COMMAND, is checked against the
 * fixed grammar (receive-grammar.ts) and runs as an argument array: `zfs receive` reads the
 * stream from our stdin (the ssh channel), `zfs list` answers the snapshots. Anything else is
 * refused on stderr with exit code 2 and noted in the system journal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { parseReceiveCommand, zfsArgs } from './receive-grammar.ts';

const pairingIdForm = /^[A-Za-z0-9-]{1,64}$/;

/** A line in the journal (tag cellar-replication); `logger` takes the text as one argument. */
function journal(text: string): void {
  spawnSync('logger', ['-t', 'cellar-replication', '--', text], { stdio: 'ignore', timeout: 5000 });
}

function refuse(pairingId: string, reason: string, original: string | undefined): never {
  // The asked command is quoted with JSON.stringify so control characters cannot forge journal lines.
  journal(`pairing ${pairingId}: refused ${JSON.stringify(original ?? '')}: ${reason}`);
  process.stderr.write(`cellar: refused: ${reason}\n`);
  process.exit(2);
}

function main(): void {
  const [pairingId = '', parent = ''] = process.argv.slice(2);
  const original = process.env.SSH_ORIGINAL_COMMAND;
  if (!pairingIdForm.test(pairingId)) refuse('?', 'the key has no valid pairing', original);
  // `restrict` in authorized_keys already denies a pty; an allocated one means the line was changed.
  if (process.env.SSH_TTY) refuse(pairingId, 'a terminal is not allowed for a replication key', original);
  const request = parseReceiveCommand(original, parent);
  if ('refused' in request) refuse(pairingId, request.refused, original);
  const [command, ...args] = zfsArgs(request);
  journal(`pairing ${pairingId}: ${request.verb} ${request.dataset}`);
  // sshd gives a user's session a PATH without the sbin folders, where zfs lives.
  const env = { ...process.env, PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
  const child = spawn(command!, args, { stdio: 'inherit', shell: false, env });
  child.on('error', (err) => refuse(pairingId, `zfs could not start: ${err.message}`, original));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
