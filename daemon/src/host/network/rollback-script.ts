/**
 * The rollback of one network change, written into the change's snapshot folder so it needs
 * neither the daemon nor its installation to run: the outside timer (systemd-run, or a detached
 * process in its own session) runs it at the deadline, the daemon runs it on revert. Whoever
 * makes `claimed` first acts (mkdir is atomic); a confirm claims it too (as a file), so a timer
 * firing late does nothing.
 *
 * A rollback records its progress: the `claimed` folder says it started, `claimed/step` what it
 * was doing, `rolled-back` that it finished. One that stopped between (a crash, a power cut) is
 * finished by the daemon, which runs the script again with `finish`: every step can run twice.
 *
 * Usage: sh rollback.sh <snapshot folder> <seconds to wait> [finish]
 */
export const rollbackScript = `#!/bin/sh
set -u
snap=$1
[ "$2" -gt 0 ] && sleep "$2"
if ! mkdir "$snap/claimed" 2>/dev/null; then
  # Claimed before: by a confirm (a file), or by a rollback (a folder) that finished or not.
  [ "\${3:-}" = finish ] && [ -d "$snap/claimed" ] && [ ! -e "$snap/rolled-back" ] || exit 0
fi
step() { echo "$1" > "$snap/claimed/step"; }
step files
# Each line: <index> <path>; files/<index> is the old content, absent when the path did not exist.
while read -r idx target; do
  if [ -e "$snap/files/$idx" ]; then
    mkdir -p "$(dirname "$target")" && cp -p "$snap/files/$idx" "$target.cellar-rollback" && mv -f "$target.cellar-rollback" "$target"
  else
    rm -f "$target"
  fi
done < "$snap/files.list"
step addresses
# ip-args holds the namespace option of a test daemon (-n <name>); empty on a box.
ip $(cat "$snap/ip-args") -force -batch "$snap/restore.batch"
step hostname
[ -f "$snap/hostname" ] && hostname "$(cat "$snap/hostname")"
step networkctl
if [ -f "$snap/networkctl" ] && [ -d /run/systemd/system ]; then
  networkctl reload
  networkctl reconfigure $(cat "$snap/networkctl")
fi
date -u +%Y-%m-%dT%H:%M:%SZ > "$snap/rolled-back"
`;
