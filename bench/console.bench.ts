import type { ListedBox } from '../console/src/bridge.ts';
import { mdnsTxt } from '../shared/src/mdns.ts';
import { makeMdnsNamespace, runInNamespace } from '../test/helpers/mdns-namespace.ts';
import { fastest } from './lib/best-of.ts';
import type { BenchRow } from './lib/table.ts';

interface Run {
  elapsedMs: number | null;
  boxes: ListedBox[];
}

/**
 * The console's discovery: from start to an announced box on the list, on the loopback of a
 * network namespace of its own (mDNS never leaves it), against a bare bonjour-service browser's
 * first answer to the same announcement in the same namespace. Each run is a fresh process, so
 * the time includes opening the mDNS sockets, as a starting console does. Needs root.
 */
export async function consoleBench(): Promise<BenchRow[]> {
  const ns = makeMdnsNamespace();
  try {
    const input = {
      announce: [{ name: 'cellar', type: 'cellar', port: 7484, txt: mdnsTxt({ installId: 'bench', version: '0.1.0', scheme: 'https' }) }],
      known: [{ url: '192.168.77.9' }],
      expect: 1,
      // The box is up before the console starts, as when an owner opens it.
      settleMs: 1500,
    };
    const measure = (bare: boolean) => async () => {
      const run = await runInNamespace<Run>(ns.name, 'test/helpers/console-discovery-run.ts', { ...input, bare });
      if (run.elapsedMs === null) throw new Error('the announced box never reached the list');
      return run.elapsedMs;
    };
    const ours = await fastest(measure(false));
    const bare = await fastest(measure(true));
    return [
      {
        name: 'Console discovery: start to an announced box on the list (loopback)',
        value: ours,
        unit: 'ms',
        baseline: bare,
        baselineName: 'bare mDNS browser, first answer',
        target: 'under 1000 ms',
        ok: ours < 1000,
      },
    ];
  } finally {
    ns.remove();
  }
}
