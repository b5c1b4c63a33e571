import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const mib = 1024 * 1024;
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
 * A generated body of `bytes` bytes in 1 MiB chunks of pseudo-random bytes, made as it is
 * read (never the whole body in memory); the chunk is copied so a slow reader never sees it change.
 */
export function generatedBody(bytes: number): Readable {
  const block = Buffer.alloc(mib);
  for (let i = 0; i < mib; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  let sent = 0;
  return new Readable({
    highWaterMark: 4 * mib,
    read() {
      if (sent >= bytes) return void this.push(null);
      const n = Math.min(mib, bytes - sent);
      const chunk = Buffer.from(block.subarray(0, n));
      chunk.writeUInt32LE(sent / mib, 0);
      sent += n;
      this.push(chunk);
    },
  });
}

/** PUTs a generated body of `bytes` bytes with a Content-Length; answers MB/s up to the server's answer. */
export async function uploadRate(url: string, headers: Record<string, string>, bytes: number): Promise<number> {
  const started = performance.now();
  const req = http.request(url, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes) } });
  const answer = new Promise<http.IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject));
  await pipeline(generatedBody(bytes), req);
  const res = await answer;
  const text = await new Promise<string>((resolve) => {
    let body = '';
    res
      .setEncoding('utf8')
      .on('data', (c: string) => (body += c))
      .on('end', () => resolve(body));
  });
  const ms = performance.now() - started;
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`PUT ${url} answered ${res.statusCode}: ${text}`);
  return rate(bytes, ms);
}

export { rate as megabytesPerSecond };
