import { claimHeader, installerRoutes, type InstalledRoot, type InstallerStatus, type InstallRequest } from '../../../shared/src/api/installer/installer.ts';
import type { RouteDef } from '../../../shared/src/api/route.ts';
import type { InstallerCall } from '../bridge.ts';
import { boxRequest } from './box-request.ts';
import { ConsoleError } from './console-error.ts';
import { keyFingerprint, pinnedTls } from './installer-key.ts';

/** Where the claim answer carries its secret; the page gets the status without it. */
const claimSecretField = 'claimSecret' satisfies keyof InstallerStatus;

/** What the console holds of one medium, by its origin. */
interface Medium {
  secret: string | null;
  /** The certificate the claim's connection presented: its fingerprint is what the wizard shows beside the code. */
  seen: string | null;
  /** That certificate, once the owner confirmed its fingerprint matches the box's screen: every later request is held to it. */
  pinned: string | null;
  /** The box name of the install request, for the installed box the console keeps. */
  boxName: string | null;
}

/** The installed box's root as read over the pinned connection, with the name the owner gave it. */
export interface InstalledBox {
  root: InstalledRoot;
  boxName: string | null;
}

/**
 * Talks to a box in installer mode for the wizard, by the installer's own route table (the
 * wizard's operation names are its keys), over HTTPS held to the medium's key once the owner
 * confirmed it. The claim secret stays in the main process: the page sees the status without it,
 * so a page never holds what would let another take over.
 */
export class InstallerClient {
  private readonly media = new Map<string, Medium>();

  /** `installed` hears of a finished installation's root, read over the pinned connection only. */
  constructor(private readonly installed: (origin: string, box: InstalledBox) => void = () => undefined) {}

  private medium(origin: string): Medium {
    let found = this.media.get(origin);
    if (!found) this.media.set(origin, (found = { secret: null, seen: null, pinned: null, boxName: null }));
    return found;
  }

  async call(origin: string, call: InstallerCall): Promise<unknown> {
    if (call.operation === 'confirmKey') return this.confirm(origin, call.body);
    const route: RouteDef | undefined = Object.hasOwn(installerRoutes, call.operation) ? installerRoutes[call.operation] : undefined;
    if (!route) throw new ConsoleError('console.installer.refused', { operation: String(call.operation) });
    const medium = this.medium(origin);
    const claimed = route.headers?.includes(claimHeader) ?? false;
    if (claimed && !medium.secret) throw new ConsoleError('console.installer.not_claimed');
    // Nothing that needs the claim goes out before the owner confirmed the key: the install carries the administrator's password.
    if (claimed && !medium.pinned) throw new ConsoleError('console.installer.not_confirmed');
    const answer = await boxRequest(origin, route.method, route.path, {
      ...(route.method === 'POST' && call.body !== undefined ? { body: call.body } : {}),
      headers: medium.secret ? { [claimHeader]: medium.secret } : {},
      ...(medium.pinned ? { tls: pinnedTls(medium.pinned) } : {}),
    });
    if (answer.status >= 400) {
      const problem = answer.body as { code?: unknown; title?: unknown; detail?: unknown; params?: unknown } | null;
      throw new ConsoleError('console.installer.refused', {
        status: answer.status,
        code: typeof problem?.code === 'string' ? problem.code : null,
        ...(typeof problem?.title === 'string' ? { title: problem.title } : {}),
        ...(typeof problem?.detail === 'string' ? { detail: problem.detail } : {}),
        ...(problem?.params && typeof problem.params === 'object' ? { problemParams: problem.params } : {}),
      });
    }
    if (call.operation === 'claim') return this.claimed(origin, medium, answer.body, answer.peerCertificate);
    if (call.operation === 'install') medium.boxName = (call.body as Partial<InstallRequest> | undefined)?.boxName ?? null;
    const status = answer.body as Partial<InstallerStatus> | null;
    if (call.operation === 'status' && medium.pinned && status?.state === 'done' && status.installedRoot)
      this.installed(origin, { root: status.installedRoot, boxName: medium.boxName });
    return answer.body;
  }

  /**
   * Keeps the secret and the certificate the claim's connection presented; the page gets the
   * status with that certificate's fingerprint. A status naming another key than the connection
   * presented means something between console and box answers for it: refused at once.
   */
  private claimed(origin: string, medium: Medium, body: unknown, presented: string | null): unknown {
    if (!presented) throw new ConsoleError('console.installer.insecure', { url: origin });
    const { [claimSecretField]: secret, ...status } = (body ?? {}) as Record<string, unknown>;
    const seen = keyFingerprint(presented);
    if ((status as Partial<InstallerStatus>).fingerprint?.sha256 !== seen.sha256) throw new ConsoleError('console.installer.key_changed', { url: origin });
    if (typeof secret === 'string') medium.secret = secret;
    medium.seen = presented;
    return { ...status, fingerprint: seen };
  }

  /** The owner saw the same line on the box's screen: the key the claim's connection presented is pinned, if it is the one shown. */
  private confirm(origin: string, body: unknown): { fingerprint: string } {
    const medium = this.medium(origin);
    if (!medium.secret || !medium.seen) throw new ConsoleError('console.installer.not_claimed');
    const fingerprint = (body as { fingerprint?: unknown } | undefined)?.fingerprint;
    if (typeof fingerprint !== 'string' || fingerprint !== keyFingerprint(medium.seen).sha256)
      throw new ConsoleError('console.installer.key_changed', { url: origin });
    medium.pinned = medium.seen;
    return { fingerprint };
  }
}
