import { X509Certificate } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { request } from 'node:https';
import { pairingAcceptance, type PairingAcceptance, type PairingAcceptRequest } from '../../../../shared/src/api/replication/replication.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { formatTargetAddress, type TargetAddress } from './target-address.ts';

const timeoutMs = 15_000;
const answerMax = 64 * 1024;
// Failures of the network itself; any other failure of a pinned connection is its certificate.
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// The target's refusals the owner can act on are passed on as they are.
const relayed = new Set(['replication.code.wrong', 'replication.code.expired', 'replication.code.attempts']);

/** A fingerprint as colon-separated upper-case hex, however it was typed. */
export const normalFingerprint = (text: string) =>
  text
    .replace(/[^0-9A-Fa-f]/g, '')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');

interface Answer {
  status: number;
  body: string;
}

function call(
  target: TargetAddress,
  lookup: LookupFunction | undefined,
  method: string,
  path: string,
  trust: { ca: string } | 'none',
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.host,
        port: target.port,
        ...(lookup ? { lookup } : {}),
        method,
        path,
        headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {},
        // No pooled connection: one opened without trust must never carry the pinned request.
        agent: false,
        timeout: timeoutMs,
        ...(trust === 'none'
          ? { rejectUnauthorized: false }
          : // The chain must end at the pinned root; the name is not checked, since the owner may type any address of the box.
            { ca: trust.ca, rejectUnauthorized: true, checkServerIdentity: () => undefined }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > answerMax) req.destroy(new Error('the answer is too long'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * The source's calls to the target (issue 33), trusting only the root certificate whose
 * fingerprint the owner read off the target's screen. The root is fetched first without trust
 * and compared with the fingerprint; the pairing request, which carries the code, then goes over
 * a new connection that TLS accepts only with a chain ending at that root. There is no unpinned
 * fallback: a mismatch or a refused chain ends the pairing with replication.target.fingerprint.
 */
export class PinnedTarget {
  /** `lookup` resolves the typed name (the system's resolver when left out). */
  constructor(
    readonly target: TargetAddress,
    private readonly lookup?: LookupFunction,
  ) {}

  private get address(): string {
    return formatTargetAddress(this.target);
  }

  private unreachable(cause: unknown): ProblemError {
    return new ProblemError('replication.target.unreachable', { address: this.address }, { cause });
  }

  /** The target's root certificate, once its fingerprint is the pinned one. */
  async root(pinned: string): Promise<string> {
    const answer = await call(this.target, this.lookup, 'GET', '/api/system/tls/root-ca.crt', 'none').catch((err: unknown) => {
      throw this.unreachable(err);
    });
    if (answer.status !== 200) throw new ProblemError('replication.target.refused', { status: answer.status });
    let presented: string;
    try {
      presented = new X509Certificate(answer.body).fingerprint256;
    } catch (err) {
      throw new ProblemError('replication.target.refused', { status: answer.status }, { cause: err });
    }
    if (presented !== normalFingerprint(pinned)) throw new ProblemError('replication.target.fingerprint', { address: this.address, presented });
    return answer.body;
  }

  /** Redeems the code on the target over a connection pinned to `rootPem`. */
  async accept(rootPem: string, body: PairingAcceptRequest): Promise<PairingAcceptance> {
    const answer = await call(this.target, this.lookup, 'POST', '/api/storage/replication/pairing-offers/accept', { ca: rootPem }, body).catch(
      (err: unknown) => {
        const code = (err as NodeJS.ErrnoException).code ?? '';
        if (networkCodes.has(code)) throw this.unreachable(err);
        throw new ProblemError('replication.target.fingerprint', { address: this.address, presented: 'another chain' }, { cause: err });
      },
    );
    const parsed = (() => {
      try {
        return JSON.parse(answer.body) as unknown;
      } catch {
        return null;
      }
    })();
    if (answer.status !== 201) {
      const code = (parsed as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && relayed.has(code)) throw new ProblemError(code as 'replication.code.wrong');
      throw new ProblemError('replication.target.refused', { status: answer.status });
    }
    const { error, value } = pairingAcceptance.validate(parsed, { stripUnknown: true });
    if (error) throw new ProblemError('replication.target.refused', { status: answer.status }, { cause: error });
    return value;
  }
}
