import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface VerifyResult {
  ok: boolean;
  output: string;
}

/**
 * `openssl verify` of a server certificate against a root, with the intermediates as untrusted
 * helpers; `at` checks at that time instead of now (renewal tests with a moved clock).
 */
export function opensslVerify(options: { root: string; intermediates: string; leaf: string; at?: number; hostname?: string; ip?: string }): VerifyResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-openssl-'));
  try {
    const file = (name: string, pem: string) => {
      const target = path.join(dir, name);
      writeFileSync(target, pem);
      return target;
    };
    const args = ['verify', '-purpose', 'sslserver', '-CAfile', file('root.pem', options.root), '-untrusted', file('chain.pem', options.intermediates)];
    if (options.at !== undefined) args.push('-attime', String(Math.floor(options.at / 1000)));
    if (options.hostname) args.push('-verify_hostname', options.hostname);
    if (options.ip) args.push('-verify_ip', options.ip);
    args.push(file('leaf.pem', options.leaf));
    const run = spawnSync('openssl', args, { encoding: 'utf8', timeout: 10_000 });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
