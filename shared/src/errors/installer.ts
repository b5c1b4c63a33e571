import { defineErrors } from './catalog-entry.ts';

/** Installer mode and the install id (spec 4.13). */
export const installerErrors = defineErrors({
  'installer.install_id.absent': { status: 404, title: 'This box was not installed by the installer, or is the installer itself' },
  'installer.mode.inactive': { status: 409, title: 'The daemon does not run in installer mode' },
  'installer.mode.only': { status: 403, title: 'The box runs the installer: only the installer operations answer', params: ['operation'] },
  'installer.claim.required': { status: 401, title: 'The installer call needs the claim secret (X-Installer-Claim)' },
  'installer.claim.taken': { status: 409, title: 'Another console holds the installer', params: ['expiresAt'] },
  'installer.claim.spent': { status: 409, title: "This console's claim ran out: another console may claim first", params: ['until'] },
  'installer.install.running': { status: 409, title: 'An installation runs or is done already', params: ['state'] },
  'installer.network.busy': { status: 409, title: 'A network test or an installation runs' },
  'installer.network.unknown_interface': { status: 422, title: 'The medium has no such network card', params: ['interface'] },
  'installer.disk.unknown': { status: 422, title: 'There is no such target disk', params: ['disk'] },
  'installer.disk.refused': { status: 409, title: 'The disk guard refuses the disk', params: ['disk', 'reasons'] },
  'installer.image.missing': { status: 503, title: 'The medium carries no system image', params: ['path'] },
  'installer.filesystem.unavailable': { status: 422, title: 'The medium lacks the tools of this file system', params: ['fileSystem', 'package'] },
  'installer.step.failed': { status: 500, title: 'A step of the installation failed', params: ['step'] },
});
