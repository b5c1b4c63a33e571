import type { InstallerCall } from '../bridge.ts';
import { boxRequest } from './box-request.ts';
import { ConsoleError } from './console-error.ts';

/** The installer's operations (spec 4.13) by the names the wizard uses. */
const operations: Record<InstallerCall['operation'], { method: 'GET' | 'POST'; path: string; claimed: boolean }> = {
  status: { method: 'GET', path: '/api/installer', claimed: false },
  claim: { method: 'POST', path: '/api/installer/claim', claimed: false },
  options: { method: 'GET', path: '/api/installer/options', claimed: true },
  networkTest: { method: 'GET', path: '/api/installer/network/test', claimed: true },
  startNetworkTest: { method: 'POST', path: '/api/installer/network/test', claimed: true },
  install: { method: 'POST', path: '/api/installer/install', claimed: true },
  reboot: { method: 'POST', path: '/api/installer/reboot', claimed: true },
};

/**
 * Where the claim answer carries its secret and the header later calls present it in, as the
 * installer branch defines them (shared/src/api/installer.ts there: `claimSecret`, `X-Installer-Claim`);
 * import them from there once both branches meet.
 */
export const claimSecretField = 'claimSecret';
const claimHeader = (secret: string) => ({ 'X-Installer-Claim': secret });

/**
 * Talks to a box in installer mode for the wizard. The claim secret stays in the main process:
 * the page sees the status without it, so a page never holds what would let another take over.
 */
export class InstallerClient {
  private readonly secrets = new Map<string, string>();

  async call(origin: string, call: InstallerCall): Promise<unknown> {
    const operation = operations[call.operation];
    if (!operation) throw new ConsoleError('console.installer.refused', { operation: String(call.operation) });
    const secret = this.secrets.get(origin);
    if (operation.claimed && !secret) throw new ConsoleError('console.installer.not_claimed');
    const answer = await boxRequest(origin, operation.method, operation.path, {
      ...(operation.method === 'POST' && call.body !== undefined ? { body: call.body } : {}),
      headers: secret ? claimHeader(secret) : {},
    });
    if (answer.status >= 400) {
      const problem = answer.body as { code?: unknown; params?: unknown } | null;
      throw new ConsoleError('console.installer.refused', {
        status: answer.status,
        code: typeof problem?.code === 'string' ? problem.code : null,
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
