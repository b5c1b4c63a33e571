// A development daemon whose network effects go to a test's namespace, in a process of its own so
// the network system test can kill -9 it (started by network-fixture.ts; not a test file itself).
import { startTestDaemon } from '../helpers/daemon.ts';

const { root, namespace, dataDir } = JSON.parse(process.env.CELLAR_TEST_NETWORK ?? '{}') as { root: string; namespace: string; dataDir: string };
const box = await startTestDaemon({ dataDir }, { system: { network: { root, namespace } } });
process.stdout.write(`listening ${box.url}\n`);
