// A backend listens for HTTP on the Unix socket the box names; the box passes only requests with a valid backend token.
import { createServer } from 'node:http';

let visits = 0;
const server = createServer((req, res) => {
  visits += 1;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ visits }));
});
server.listen(process.env.CELLAR_BACKEND_SOCKET);
