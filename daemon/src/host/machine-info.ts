import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { installPath, packageRoot } from '../core/install-paths.ts';
import type { CommandRunner } from './command-runner.ts';

async function readText(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    return null;
  }
}

/** `PRETTY_NAME` of an os-release file. */
export function prettyName(osRelease: string): string | null {
  const m = /^PRETTY_NAME=(.*)$/m.exec(osRelease);
  return m?.[1] ? m[1].replace(/^"(.*)"$/, '$1') : null;
}

/** The first `model name` of /proc/cpuinfo; ARM boards name it `Model` or nothing. */
export function processorModel(cpuinfo: string): string {
  return (/^model name\s*:\s*(.+)$/m.exec(cpuinfo) ?? /^Model\s*:\s*(.+)$/m.exec(cpuinfo))?.[1]?.trim() ?? '';
}

export interface MachineFacts {
  operatingSystem: string | null;
  kernel: string;
  machine: string | null;
  architecture: string;
  processor: { model: string; cores: number };
  memory: { totalBytes: number };
  hostName: string;
  uptimeSeconds: number;
}

/** What the machine is, from /etc/os-release, /proc and DMI; read-only. */
export async function machineFacts(): Promise<MachineFacts> {
  const [osRelease, cpuinfo, vendor, product] = await Promise.all([
    readText('/etc/os-release'),
    readText('/proc/cpuinfo'),
    readText('/sys/class/dmi/id/sys_vendor'),
    readText('/sys/class/dmi/id/product_name'),
  ]);
  const machine = [vendor, product].filter((part) => part && part !== 'To Be Filled By O.E.M.').join(' ');
  return {
    operatingSystem: osRelease ? prettyName(osRelease) : null,
    kernel: os.release(),
    machine: machine || null,
    architecture: os.machine(),
    processor: { model: cpuinfo ? processorModel(cpuinfo) : (os.cpus()[0]?.model ?? ''), cores: Math.max(1, os.availableParallelism()) },
    memory: { totalBytes: os.totalmem() },
    hostName: os.hostname(),
    uptimeSeconds: Math.round(os.uptime()),
  };
}

/**
 * The commit the daemon was built from: the package build writes it to COMMIT; a source
 * checkout asks git. Neither: unknown.
 */
export async function buildCommit(runner: CommandRunner): Promise<string | null> {
  const written = await readText(installPath('COMMIT'));
  if (written) return written;
  try {
    const r = await runner.read(['git', '-C', packageRoot, 'rev-parse', 'HEAD'], { allowFailure: true, timeoutMs: 5000 });
    return r.exitCode === 0 && /^[0-9a-f]{40}$/.test(r.stdout.trim()) ? r.stdout.trim() : null;
  } catch {
    return null;
  }
}
