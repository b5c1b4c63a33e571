import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');
let made = 0;

/**
 * A network namespace of the test's own whose loopback carries multicast, so mDNS hellos stay
 * on loopback and never reach the machine's network (the host's `lo` has no MULTICAST flag).
 * Needs root (`ip netns add`).
 */
export function makeMdnsNamespace(): { name: string; remove(): void } {
  if (process.getuid?.() !== 0) throw new Error('mDNS tests need root: they make a network namespace (ip netns add)');
  const name = `cellar-mdns-${process.pid}-${made++}`;
  execFileSync('ip', ['netns', 'add', name]);
  try {
    execFileSync('ip', ['-n', name, 'link', 'set', 'lo', 'up', 'multicast', 'on']);
    execFileSync('ip', ['-n', name, 'route', 'add', '224.0.0.0/4', 'dev', 'lo']);
  } catch (err) {
    execFileSync('ip', ['netns', 'del', name]);
    throw err;
  }
  return { name, remove: () => execFileSync('ip', ['netns', 'del', name]) };
}

/** Runs a TypeScript script inside the namespace and answers the JSON it prints last. */
export function runInNamespace<T>(namespace: string, script: string, input: unknown, timeoutMs = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, '--import', 'tsx', path.join(repo, script), JSON.stringify(input)], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err || out}`));
      resolve(JSON.parse(last) as T);
    });
  });
}

/**
 * Starts a long-running TypeScript script inside the namespace and answers the JSON of its first
 * line with the process; closing its stdin asks it to stop (`stop` waits for that).
 */
export function startInNamespace<T>(namespace: string, script: string, input: unknown): Promise<{ ready: T; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, '--import', 'tsx', path.join(repo, script), JSON.stringify(input)], {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('exit', () => (clearTimeout(timer), resolve()));
      child.stdin?.end();
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready: ${err || out}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ ready: JSON.parse(line) as T, child, stop });
    });
  });
}
