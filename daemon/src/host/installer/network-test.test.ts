import net from 'node:net';
import { expect } from 'chai';
import { httpStatus } from './network-test.ts';

/** A loopback server that sends `answer` a byte every 20 ms and records when the client's connection closed. */
async function trickler(answer: string) {
  const closed: Promise<void>[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = net.createServer((socket) => {
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    socket.on('error', () => undefined);
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      // Past the answer, the body goes on for ever.
      socket.write(answer[sent] ?? 'x');
      sent++;
    }, 20);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: new URL(`http://registry.cellar.test:${port}/dists/stable/InRelease`),
    closed,
    close: () => {
      for (const t of timers) clearInterval(t);
      server.close();
    },
  };
}

describe('installer network test: the registry check', () => {
  it('gives up at its deadline on a registry that trickles its headers (never idle long enough for a socket timeout)', async () => {
    const server = await trickler('HTTP/1.1 200 OK\r\n' + 'X-Slow: ' + 'y'.repeat(10_000));
    try {
      const failed = await httpStatus(server.url, '127.0.0.1', 400).then(
        (status) => new Error(`answered ${status}`),
        (err: unknown) => err as Error,
      );
      expect(failed.message).to.equal('no answer within 400 ms');
      expect(server.closed).to.have.length(1);
      await server.closed[0];
    } finally {
      server.close();
    }
  });

  it('answers the status as soon as the headers are in and closes the connection instead of reading a trickled body', async () => {
    const server = await trickler('HTTP/1.1 404 Not Found\r\nContent-Length: 1000000\r\n\r\n');
    try {
      expect(await httpStatus(server.url, '127.0.0.1', 5000)).to.equal(404);
      await server.closed[0];
    } finally {
      server.close();
    }
  });
});
