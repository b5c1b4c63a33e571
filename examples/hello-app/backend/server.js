// A backend listens for HTTP on the Unix socket the box names (CELLAR_BACKEND_SOCKET). Only the
// box can reach that socket, and it passes a request on only with a valid backend token, naming
// the user in X-Cellar-User-Id and X-Cellar-Username and the window in X-Cellar-Instance. What it
// prints goes to the box's log.
import { createServer } from 'node:http';

let visits = 0;
const server = createServer((req, res) => {
  visits += 1;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ visits, user: req.headers['x-cellar-username'] ?? null, window: req.headers['x-cellar-instance'] ?? null }));
});
server.listen(process.env.CELLAR_BACKEND_SOCKET, () => console.log(`hello backend listening, data in ${process.env.CELLAR_DATA_DIR}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
