import { appRight, specialRights, type PermissionRight } from '../../../../../shared/src/api/identity/permissions.ts';

/** An app as the catalog needs it; the core app registry and installed apps both give these. */
export interface CatalogApp {
  id: string;
  title: string;
}

const fixedRights: PermissionRight[] = [
  {
    id: specialRights.admin,
    kind: 'special',
    title: 'Administration',
    description: 'Every administrator operation; the box keeps at least one active administrator.',
  },
  { id: specialRights.power, kind: 'special', title: 'Restart and shut down', description: 'Restart and shut down the box.' },
  { id: specialRights.smb, kind: 'protocol', title: 'SMB', description: 'Reach shares from Windows, macOS and Linux file managers.' },
  { id: specialRights.sftp, kind: 'protocol', title: 'SFTP', description: 'Reach shares with SFTP clients.' },
];

/** The permission catalog in editor order: special rights, file protocols, then one entry per app. */
export function permissionCatalog(apps: readonly CatalogApp[]): PermissionRight[] {
  return [
    ...fixedRights,
    ...apps.map((app): PermissionRight => ({ id: appRight(app.id), kind: 'app', title: app.title, description: `Use the app ${app.title}.` })),
  ];
}
