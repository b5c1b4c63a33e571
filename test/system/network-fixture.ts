import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let made = 0;

/** A network namespace made by the test, with a veth pair: `eth0` (the box's card) and its peer `peer0`. */
export interface TestNamespace {
  name: string;
  /** Folder the daemon writes networkd, resolver and host name files under. */
  root: string;
  /** Global addresses of a link, with prefix. */
  addresses(dev?: string): string[];
  defaultGateway(): string | null;
  close(): void;
}

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8' });
}

export const oldAddress = '10.77.0.2/24';
export const oldGateway = '10.77.0.1';

export function makeNamespace(): TestNamespace {
  const name = `cellar-net-${process.pid}-${++made}`;
  ip('netns', 'add', name);
  ip('-n', name, 'link', 'set', 'lo', 'up');
  ip('-n', name, 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'peer0');
  ip('-n', name, 'addr', 'add', oldAddress, 'dev', 'eth0');
  ip('-n', name, 'link', 'set', 'eth0', 'up');
  ip('-n', name, 'link', 'set', 'peer0', 'up');
  ip('-n', name, 'route', 'add', 'default', 'via', oldGateway, 'dev', 'eth0');
  const root = mkdtempSync(path.join(tmpdir(), 'cellar-network-root-'));
  return {
    name,
    root,
    addresses: (dev = 'eth0') =>
      (JSON.parse(ip('-n', name, '-j', 'addr', 'show', 'dev', dev)) as { addr_info: { local: string; prefixlen: number; scope: string }[] }[])
        .flatMap((l) => l.addr_info)
        .filter((a) => a.scope === 'global')
        .map((a) => `${a.local}/${a.prefixlen}`),
    defaultGateway: () => (JSON.parse(ip('-n', name, '-j', 'route', 'show', 'default')) as { gateway?: string }[])[0]?.gateway ?? null,
    close: () => {
      ip('netns', 'del', name);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` holds, for a change made by a process other than the test's (the outside timer). */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return check();
}

/** A development daemon in a process of its own (network-daemon-child.ts) applying to the namespace, for a kill -9. */
export async function startDaemonChild(ns: TestNamespace, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'network-daemon-child.ts')], {
    env: { ...process.env, CELLAR_TEST_NETWORK: JSON.stringify({ root: ns.root, namespace: ns.name, dataDir }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^listening (\S+)$/m.exec(out);
      if (line) resolve(line[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the daemon exited with ${code}`)));
  });
  return { url, child };
}
