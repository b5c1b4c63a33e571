import type { backupRoutes } from '../../../../shared/src/api/backup/backup.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { BackupService } from './backup.service.ts';

export function backupHandlers(backup: BackupService): AreaHandlers<typeof backupRoutes> {
  return {
    create: async ({ body, user, res }) => {
      const { file, fileName } = await backup.create(body.password, user);
      res.status(200).type('application/octet-stream').attachment(fileName).setHeader('Cache-Control', 'no-store').end(file);
    },
    inspect: ({ body, user }) => backup.inspect(user, body.password, body.backup),
    restore: async ({ req, body, user, res }) => {
      // A restored network configuration is staged as a change whose addresses to open use this request's scheme and port.
      const connection = { localAddress: req.socket.localAddress ?? null, scheme: req.protocol, port: req.socket.localPort ?? 7484 };
      const result = await backup.restore(user, body.backupId, body.parts, connection);
      // The answer goes out first; then the daemon rebuilds itself from the restored configuration.
      res.once('finish', () => backup.restart());
      return result;
    },
  };
}
