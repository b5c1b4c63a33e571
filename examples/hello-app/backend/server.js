// A backend takes HTTP on the listening socket the box hands it (socket activation, as systemd
// does it): descriptor 3, announced by LISTEN_FDS=1 and LISTEN_PID (its own pid). It never binds a
// path itself. Only the box can connect to that socket, and it passes a request on only with a
// valid backend token, naming the user in X-Cellar-User-Id and X-Cellar-Username and the window
// in X-Cellar-Instance. What it prints goes to the box's log.
import { createServer } from 'node:http';

if (process.env.LISTEN_PID !== String(process.pid) || process.env.LISTEN_FDS !== '1') {
  console.error('no listening socket from the box (LISTEN_FDS/LISTEN_PID)');
  process.exit(1);
}

let visits = 0;
const server = createServer((req, res) => {
  visits += 1;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ visits, user: req.headers['x-cellar-username'] ?? null, window: req.headers['x-cellar-instance'] ?? null }));
});
server.listen({ fd: 3 }, () => console.log(`hello backend listening, data in ${process.env.CELLAR_DATA_DIR}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
