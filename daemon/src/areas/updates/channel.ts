import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UpdateChannel, UpdateIndex } from '../../../../shared/src/api/updates/updates.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TrustedKey } from '../../core/signed-index.ts';
import { verifiedIndex } from './signed-release.ts';

const indexTimeoutMs = 30_000;

/**
 * A channel is a folder on a web server: `<base>/<channel>/index.json`, its signature
 * `index.json.sig`, and the packages the index names beside them (docs/updates.md).
 */
export class UpdateChannelReader {
  constructor(
    private readonly baseUrl: string,
    private readonly keys: readonly TrustedKey[],
  ) {}

  private url(channel: UpdateChannel, file: string): string {
    return new URL(`${channel}/${encodeURIComponent(file)}`, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`).href;
  }

  private async get(channel: UpdateChannel, file: string, signal?: AbortSignal): Promise<Response | null> {
    try {
      const answer = await fetch(this.url(channel, file), { signal: signal ?? AbortSignal.timeout(indexTimeoutMs), redirect: 'error' });
      return answer;
    } catch (err) {
      throw new ProblemError('system.channel.unreachable', { channel }, { detail: err instanceof Error ? err.message : String(err) });
    }
  }

  async index(channel: UpdateChannel): Promise<UpdateIndex> {
    const data = await this.get(channel, 'index.json');
    if (!data?.ok) throw new ProblemError('system.channel.unreachable', { channel }, { detail: `index.json answered ${data?.status}` });
    const sig = await this.get(channel, 'index.json.sig');
    return verifiedIndex(Buffer.from(await data.arrayBuffer()), sig?.ok ? await sig.text() : null, this.keys);
  }

  /** Downloads a package the index names; the caller checks its hash. */
  async download(channel: UpdateChannel, file: string, to: string, signal?: AbortSignal): Promise<void> {
    const answer = await this.get(channel, file, signal);
    if (!answer?.ok || !answer.body) throw new ProblemError('system.channel.unreachable', { channel }, { detail: `${file} answered ${answer?.status}` });
    await pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), createWriteStream(to, { mode: 0o600 }));
  }
}
