import { defineRoute } from '../route.ts';
import { installerNetworkConfig, installerOptions, installerStatus, installIdResponse, installRequest, networkTestStatus } from './wizard.ts';

export * from './wizard.ts';

/** The header that carries the claim secret of `POST /api/installer/claim` on every later installer call. */
export const claimHeader = 'X-Installer-Claim';

const claimed =
  'Installer mode only (`BOX_MODE=installer`, what the installation medium starts); needs the claim secret in the `X-Installer-Claim` header. ' +
  'Every call with the secret renews the claim. Outside installer mode: installer.mode.inactive.';

/**
 * The installer (spec 4.13). The medium's daemon answers nothing else: every other operation
 * is refused with installer.mode.only. Installed boxes answer only the install id.
 */
export const installerRoutes = {
  installId: defineRoute({
    id: 'installer.installId',
    method: 'GET',
    path: '/api/install-id',
    access: 'public',
    summary: 'The id the installer gave this box, so a console can tell a reinstalled box from the one it knew',
    description:
      'Public, like the root certificate: the console asks before it trusts the box. 404 installer.install_id.absent on the installation medium and on a box installed without the installer (from the package).',
    status: 200,
    response: installIdResponse,
    errors: ['installer.install_id.absent'],
  }),
  status: defineRoute({
    id: 'installer.status',
    method: 'GET',
    path: '/api/installer',
    access: 'public',
    summary: 'The installer: waiting, claimed (until when), installing with progress, done, or failed with the step and reason',
    description: 'Public in installer mode, so a console sees whether another holds the claim; it never carries the secret or the code.',
    status: 200,
    response: installerStatus,
    errors: ['installer.mode.inactive'],
  }),
  claim: defineRoute({
    id: 'installer.claim',
    method: 'POST',
    path: '/api/installer/claim',
    access: 'public',
    summary: "Claims the installer for one console: the answer alone carries the secret and the code the box's screen shows",
    description:
      'The first caller gets the claim; another is refused with installer.claim.taken until the claim lapses (10 minutes after its holder last called). ' +
      'The holder calling again gets a new secret and code. A claim lives at most 60 minutes in all, however often renewed; then the address that held it ' +
      'is refused with installer.claim.spent for 10 minutes, so another console can claim. Refuses cross-site browser requests by Origin.',
    status: 200,
    response: installerStatus,
    errors: ['installer.mode.inactive', 'installer.claim.taken', 'installer.claim.spent', 'auth.origin.invalid'],
    csrfExempt: true,
  }),
  options: defineRoute({
    id: 'installer.options',
    method: 'GET',
    path: '/api/installer/options',
    access: 'public',
    summary: "Target disks with the Storage area's disk guard verdict, languages, regions, time zones and the medium's network",
    description: claimed,
    headers: [claimHeader],
    status: 200,
    response: installerOptions,
    errors: ['installer.mode.inactive', 'installer.claim.required', 'host.tool.missing'],
  }),
  networkTest: defineRoute({
    id: 'installer.networkTest',
    method: 'GET',
    path: '/api/installer/network/test',
    access: 'public',
    summary: 'The last network test: its configuration and the state of each check',
    description: claimed,
    headers: [claimHeader],
    status: 200,
    response: networkTestStatus,
    errors: ['installer.mode.inactive', 'installer.claim.required'],
  }),
  startNetworkTest: defineRoute({
    id: 'installer.startNetworkTest',
    method: 'POST',
    path: '/api/installer/network/test',
    access: 'public',
    summary: 'Applies a network configuration to the medium for now and tests the gateway, name resolution and the package registry',
    description: `${claimed} Follow it with GET; the configuration stays applied until the next test or the installation (which writes it to the target). Takes InstallerNetworkConfig, not the spec's NetworkConfig: the medium configures one card for the installed system's first start (see docs/installer.md).`,
    headers: [claimHeader],
    body: installerNetworkConfig,
    status: 202,
    response: networkTestStatus,
    errors: ['installer.mode.inactive', 'installer.claim.required', 'installer.network.busy', 'installer.network.unknown_interface', 'host.tool.missing'],
  }),
  install: defineRoute({
    id: 'installer.install',
    method: 'POST',
    path: '/api/installer/install',
    access: 'public',
    summary:
      'Installs onto the target disk: partitions, system file system, the medium’s system image, the configuration with the first administrator and the install id, the boot loader',
    description: `${claimed} Answers at once with the plan's exact commands; follow the progress with GET /api/installer. The disk guard is asked again just before the disk is touched.`,
    headers: [claimHeader],
    body: installRequest,
    status: 202,
    response: installerStatus,
    errors: [
      'installer.mode.inactive',
      'installer.claim.required',
      'installer.install.running',
      'installer.disk.unknown',
      'installer.disk.refused',
      'installer.image.missing',
      'installer.filesystem.unavailable',
      'system.zone.unknown',
      'host.tool.missing',
    ],
  }),
  reboot: defineRoute({
    id: 'installer.reboot',
    method: 'POST',
    path: '/api/installer/reboot',
    access: 'public',
    summary: 'Restarts the machine into the installed system once this answer is sent',
    description: `${claimed} Answers 202 at once; the restart begins after the answer went out, so the console gets it before the connection ends. The console then waits for the installed box to come back.`,
    headers: [claimHeader],
    status: 202,
    errors: ['installer.mode.inactive', 'installer.claim.required', 'installer.install.running'],
  }),
};
