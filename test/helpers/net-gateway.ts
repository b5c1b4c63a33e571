// A gateway for the installer's network test, run inside the test's own network namespace:
// a name server that answers every A question with this address, and an HTTP "registry".
//   ip netns exec <ns> node --import=tsx test/helpers/net-gateway.ts <address>
import { createSocket } from 'node:dgram';
import http from 'node:http';

const address = process.argv[2]!;

const dns = createSocket('udp4');
dns.on('message', (query, peer) => {
  // Header: same id, answer flags, one question, one answer; the question is copied as asked.
  let end = 12;
  while (query[end] !== 0) end += query[end]! + 1;
  const question = query.subarray(12, end + 5);
  const header = Buffer.from([query[0]!, query[1]!, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]);
  const answer = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...address.split('.').map(Number)]);
  dns.send(Buffer.concat([header, question, answer]), peer.port, peer.address);
});
dns.bind(53, address);

http.createServer((_req, res) => res.end('registry\n')).listen(80, address, () => process.stdout.write('ready\n'));
