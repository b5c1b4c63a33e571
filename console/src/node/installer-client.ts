import { claimHeader, installerRoutes, type InstallerStatus } from '../../../shared/src/api/installer.ts';
import type { RouteDef } from '../../../shared/src/api/route.ts';
import type { InstallerCall } from '../bridge.ts';
import { boxRequest } from './box-request.ts';
import { ConsoleError } from './console-error.ts';

/** Where the claim answer carries its secret; the page gets the status without it. */
const claimSecretField = 'claimSecret' satisfies keyof InstallerStatus;

/**
 * Talks to a box in installer mode for the wizard, by the installer's own route table (the
 * wizard's operation names are its keys). The claim secret stays in the main process: the page
 * sees the status without it, so a page never holds what would let another take over.
 */
export class InstallerClient {
  private readonly secrets = new Map<string, string>();

  async call(origin: string, call: InstallerCall): Promise<unknown> {
    const route: RouteDef | undefined = Object.hasOwn(installerRoutes, call.operation) ? installerRoutes[call.operation] : undefined;
    if (!route) throw new ConsoleError('console.installer.refused', { operation: String(call.operation) });
    const secret = this.secrets.get(origin);
    const claimed = route.headers?.includes(claimHeader) ?? false;
    if (claimed && !secret) throw new ConsoleError('console.installer.not_claimed');
    const answer = await boxRequest(origin, route.method, route.path, {
      ...(route.method === 'POST' && call.body !== undefined ? { body: call.body } : {}),
      headers: secret ? { [claimHeader]: secret } : {},
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
    if (call.operation === 'claim' && answer.body && typeof answer.body === 'object') {
      const { [claimSecretField]: claimed, ...status } = answer.body as Record<string, unknown>;
      if (typeof claimed === 'string') this.secrets.set(origin, claimed);
      return status;
    }
    return answer.body;
  }
}
