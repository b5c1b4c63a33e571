import { renameSync } from 'node:fs';
import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import net from 'node:net';

/**
 * The folder of the backends' listening sockets: the daemon's own account's alone (mode 0700,
 * root's on a box). No app can enter it, so no app can put a link, a folder or another socket
 * where the daemon connects. Refused when something else (a link, a file, another owner's
 * folder) sits at its path.
 */
export async function prepareSocketFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const found = await lstat(folder);
  if (!found.isDirectory() || found.uid !== process.getuid?.()) throw new Error(`${folder} is not the daemon's own folder`);
  if ((found.mode & 0o777) !== 0o700) await chmod(folder, 0o700);
}

/** A listening socket the daemon made for a backend, still at its temporary name. */
export interface PendingSocket {
  /** The descriptor to hand to the backend (it becomes the backend's fd 3). */
  fd: number;
  /**
   * Moves the socket to the path the daemon connects to, runs `handOver` (which starts the
   * backend with the descriptor), and closes the daemon's own copy, all in one turn of the event
   * loop: the daemon never accepts a connection on it, the backend does.
   */
  publish<T>(handOver: (fd: number) => T): T;
  /** Closes the daemon's copy without handing it over (a start that was cancelled). */
  close(): void;
}

/**
 * Makes a backend's listening Unix socket at `<socketPath>.new` in the daemon's socket folder.
 * The backend never binds a path itself: socket activation, as systemd does it.
 */
export async function listenForBackend(socketPath: string): Promise<PendingSocket> {
  const pendingPath = `${socketPath}.new`;
  // A leftover of a start that broke off; anything but a file here is refused (rm without recursive).
  await rm(pendingPath, { force: true });
  const server = net.createServer();
  // A connection before the hand-over can come from a root process only (the folder is 0700); it is not the backend's to answer.
  server.on('connection', (socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: pendingPath, backlog: 128 }, () => resolve());
  });
  // Node gives no public way to a listening server's descriptor; the handle's fd is how its own
  // cluster module and child_process pass one on (a positive integer in spawn's stdio).
  const fd = (server as unknown as { _handle: { fd: number } | null })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) {
    server.close();
    throw new Error(`the socket ${pendingPath} has no descriptor`);
  }
  const close = () => {
    // libuv unlinks the name it bound when the server closes: after publish that name is gone already.
    server.close();
  };
  return {
    fd,
    close,
    publish(handOver) {
      try {
        // Replaces the socket of the backend's last run; a folder left at that path is refused.
        renameSync(pendingPath, socketPath);
        return handOver(fd);
      } finally {
        close();
      }
    },
  };
}
