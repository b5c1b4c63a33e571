import { createServer } from 'node:http';

/** A target service in a process of its own (PORT) that does no work: a small answer, so the proxy's own cost shows. */
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end('hello from the target\n');
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
