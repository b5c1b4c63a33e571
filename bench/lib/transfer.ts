import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Megabytes (10^6 bytes) per second. */
function rate(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

/**
 * GETs a body with curl writing to /dev/null and answers MB/s (fails on a short or wrong answer).
 * curl, not Node's http client: Node's client spends more CPU per GiB than either server, so it
 * measured itself rather than the server (curl reads the same nginx at well over twice the rate).
 */
export async function downloadRate(url: string, headers: Record<string, string>, expectBytes: number): Promise<number> {
  const args = ['--silent', '--show-error', '--fail', '--output', '/dev/null', '--write-out', '%{size_download} %{time_total}'];
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`);
  args.push(url);
  const { stdout } = await run('curl', args, { maxBuffer: 1024 * 1024 });
  const [bytes, seconds] = stdout.trim().split(' ').map(Number);
  if (bytes !== expectBytes) throw new Error(`GET ${url} gave ${bytes} bytes, expected ${expectBytes}`);
  return rate(bytes ?? 0, (seconds ?? 1) * 1000);
}

/**
 * PUTs a file with curl (its Content-Length known) and answers MB/s up to the server's answer.
 * curl, as for downloads: a Node client generating the body spent as much CPU as the daemon
 * receiving it, on the same two cores, and so measured itself. The file is the page-cached
 * fixture dd copies for the baseline. `Expect:` is sent empty: curl would otherwise wait for a
 * 100 Continue before the body, a round trip dd has no counterpart of.
 */
export async function uploadRate(url: string, headers: Record<string, string>, file: string, bytes: number): Promise<number> {
  const args = ['--silent', '--show-error', '--fail', '--upload-file', file, '--output', '/dev/null', '--write-out', '%{size_upload} %{time_total}'];
  for (const [name, value] of Object.entries({ ...headers, 'Content-Type': 'application/octet-stream', Expect: '' }))
    args.push('--header', value === '' ? `${name}:` : `${name}: ${value}`);
  args.push(url);
  const { stdout } = await run('curl', args, { maxBuffer: 1024 * 1024 });
  const [sent, seconds] = stdout.trim().split(' ').map(Number);
  if (sent !== bytes) throw new Error(`PUT ${url} sent ${sent} bytes, expected ${bytes}`);
  return rate(bytes, (seconds ?? 1) * 1000);
}

export { rate as megabytesPerSecond };
