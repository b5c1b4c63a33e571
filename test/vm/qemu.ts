import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';

/** Debian's OVMF (package ovmf): the UEFI firmware's code, and its variable store each machine gets a copy of. */
const ovmfCode = '/usr/share/OVMF/OVMF_CODE_4M.fd';
const ovmfVars = '/usr/share/OVMF/OVMF_VARS_4M.fd';

export interface VmOptions {
  /** Names the serial log (serial-<name>.log) and the UEFI variable store in `dir`. */
  name: string;
  dir: string;
  firmware: 'bios' | 'uefi';
  /** Raw disk files, first the one to boot unless a CD is given. */
  disks: string[];
  cdrom?: string;
  /** The loopback port forwarded to the guest's daemon port. */
  hostPort: number;
  guestPort: number;
  /** Further loopback ports forwarded to guest ports (SMB, SSH). */
  forwards?: { hostPort: number; guestPort: number }[];
  /**
   * The one address outside the guest it may reach (QEMU's guestfwd): each connection to
   * `address:port` runs `command` (libslirp parses it into arguments, no shell) with the
   * connection as its standard input and output.
   */
  guestfwd?: { address: string; port: number; command: string[] };
  memoryMiB?: number;
}

/**
 * One QEMU machine under TCG (no KVM on these machines): user networking restricted to the guest
 * itself (restrict=on: it reaches nothing outside, only the forwarded loopback port reaches it), the
 * serial console into a file, no display; a guestfwd, where given, is the one way out of it. QEMU exits instead of rebooting, so a restart of the guest
 * ends the machine and the test boots the next one from its disk.
 */
export class Vm {
  readonly serialLog: string;
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private stderr = '';

  constructor(readonly options: VmOptions) {
    const { name, dir, firmware, disks, cdrom, hostPort, guestPort, forwards = [], guestfwd } = options;
    const hostfwd = [{ hostPort, guestPort }, ...forwards].map((f) => `,hostfwd=tcp:127.0.0.1:${f.hostPort}-:${f.guestPort}`).join('');
    // A comma would end QEMU's option: none in the command (paths of this machine, a port).
    if (guestfwd?.command.some((a) => /[,\s]/.test(a))) throw new Error(`guestfwd command with a comma or space: ${guestfwd.command.join(' ')}`);
    const toHost = guestfwd ? `,guestfwd=tcp:${guestfwd.address}:${guestfwd.port}-cmd:${guestfwd.command.join(' ')}` : '';
    this.serialLog = path.join(dir, `serial-${name}.log`);
    const args = [
      '-accel',
      'tcg',
      '-m',
      String(options.memoryMiB ?? 2048),
      '-smp',
      '2',
      '-display',
      'none',
      '-no-reboot',
      '-serial',
      `file:${this.serialLog}`,
      '-netdev',
      `user,id=net0,restrict=on${hostfwd}${toHost}`,
      '-device',
      'virtio-net-pci,netdev=net0',
    ];
    if (firmware === 'uefi') {
      const vars = path.join(dir, `ovmf-vars-${name}.fd`);
      copyFileSync(ovmfVars, vars);
      args.push('-drive', `if=pflash,format=raw,readonly=on,file=${ovmfCode}`, '-drive', `if=pflash,format=raw,file=${vars}`);
    }
    for (const disk of disks) args.push('-drive', `file=${disk},if=virtio,format=raw,cache=unsafe`);
    if (cdrom) args.push('-drive', `file=${cdrom},media=cdrom,readonly=on`, '-boot', 'd');
    this.child = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Waits for the machine to end by itself (shut down or restarted); kills it after `timeoutMs`. */
  async waitExit(timeoutMs: number): Promise<void> {
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
    if ((await Promise.race([this.exited, timer])) === 'timeout') {
      this.kill();
      throw new Error(`the machine ${this.options.name} did not end within ${timeoutMs / 1000} s (serial log ${this.serialLog})`);
    }
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** QEMU's own complaints (a missing firmware file, a refused option). */
  get qemuErrors(): string {
    return this.stderr;
  }

  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }
}
