import Joi from 'joi';
import { isoTime } from '../common.ts';
import { hostAddress } from './ip-address.ts';
import { defineRoute } from '../route.ts';

/** How an interface gets its addresses: fixed ones, from a DHCP server, or none (down, or a bond member). */
export type AddressMethod = 'static' | 'dhcp' | 'off';
export type BondMode = 'balance-rr' | 'active-backup' | 'balance-xor' | 'broadcast' | '802.3ad' | 'balance-tlb' | 'balance-alb';
export const bondModes: readonly BondMode[] = ['balance-rr', 'active-backup', 'balance-xor', 'broadcast', '802.3ad', 'balance-tlb', 'balance-alb'];

/** The addresses of one card, bond or VLAN. */
export interface InterfaceConfig {
  name: string;
  method: AddressMethod;
  /** With prefix length (`192.0.2.10/24`, `2001:db8::10/64`); only for `static`. */
  addresses: string[];
  /** The default route through this interface; only for `static`, inside one of its subnets. */
  gateway: string | null;
}

export interface BondConfig {
  name: string;
  mode: BondMode;
  /** Cards joined; each is then configured through the bond, not on its own. */
  members: string[];
}

export interface VlanConfig {
  name: string;
  /** A card or bond of the box or of this configuration. */
  parent: string;
  id: number;
}

/** The box's whole network configuration: what PUT applies as one change and check inspects. */
export interface NetworkConfig {
  hostName: string;
  nameServers: string[];
  interfaces: InterfaceConfig[];
  bonds: BondConfig[];
  vlans: VlanConfig[];
}

export type LinkKind = 'ethernet' | 'bond' | 'vlan' | 'loopback' | 'virtual';

export interface LinkAddress {
  /** With prefix length. */
  address: string;
  family: 4 | 6;
  /** Leased from DHCP or made by router advertisements, not set by hand. */
  dynamic: boolean;
}

/** One card, bond or VLAN as the kernel reports it now. */
export interface NetworkLink {
  name: string;
  kind: LinkKind;
  mac: string | null;
  /** Administratively up. */
  up: boolean;
  /** A cable and a peer: the card sees a link. */
  carrier: boolean;
  /** Link speed from /sys/class/net, when the driver tells. */
  speedMbps: number | null;
  mtu: number;
  addresses: LinkAddress[];
  /** Default routes through this link. */
  gateways: string[];
  /** Whether this interface may be changed here (not the loopback, not a bridge or tunnel of apps). */
  changeable: boolean;
  /** The bond this card is a member of. */
  master: string | null;
  bond: { mode: string; members: string[] } | null;
  vlan: { parent: string; id: number } | null;
}

/** A change applied and awaiting confirmation. */
export interface PendingNetworkChange {
  changeId: string;
  createdAt: string;
  /** Rolled back at this time unless confirmed. */
  deadline: string;
  /** Static addresses of the changed interfaces: one of them reaches the box afterwards. */
  addresses: string[];
  /** The same as addresses to open in a browser (scheme and port of the request that applied it). */
  urls: string[];
  /**
   * One-time token for the session to follow the box to a new address (cookies are bound to the host):
   * POST /api/system/network/follow on the new address. Only in the PUT answer, null elsewhere.
   */
  followToken: string | null;
}

export interface NetworkState {
  links: NetworkLink[];
  hostName: string;
  nameServers: string[];
  /** What the box is configured to (the stored form); read from the live state before the first change. */
  configured: NetworkConfig;
  /** The interface this request came in on (from the socket's local address); null on the topic. */
  connectionInterface: string | null;
  pending: PendingNetworkChange | null;
}

export interface NetworkCheck {
  /** The configuration as it would be stored (names sorted, addresses normalised). */
  config: NetworkConfig;
  /** Interfaces whose addresses, membership or existence change. */
  changedInterfaces: string[];
  hostNameChanges: boolean;
  /** Whether the interface of this connection changes: the page may lose the box. */
  connectionInterfaceChanges: boolean;
  /** Static addresses to open afterwards. */
  addresses: string[];
}

export interface FollowRequest {
  token: string;
}

export const maxNameServers = 8;
export const interfaceNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$/;
const interfaceName = () => Joi.string().pattern(interfaceNamePattern);

export const interfaceConfig = Joi.object<InterfaceConfig, true>({
  name: interfaceName().required(),
  method: Joi.string().valid('static', 'dhcp', 'off').required(),
  addresses: Joi.array().items(hostAddress('required')).max(16).unique().required(),
  gateway: hostAddress('forbidden').allow(null).required(),
}).id('InterfaceConfig');

export const networkConfig = Joi.object<NetworkConfig, true>({
  // Its rules are the service's (network.hostname.invalid); the schema only bounds it.
  hostName: Joi.string().max(253).allow('').required(),
  nameServers: Joi.array().items(hostAddress('forbidden')).max(maxNameServers).unique().required(),
  interfaces: Joi.array().items(interfaceConfig).max(64).required(),
  bonds: Joi.array()
    .items(
      Joi.object<BondConfig, true>({
        name: interfaceName().required(),
        mode: Joi.string()
          .valid(...bondModes)
          .required(),
        members: Joi.array().items(interfaceName()).min(1).max(8).unique().required(),
      }),
    )
    .max(16)
    .required(),
  vlans: Joi.array()
    .items(
      Joi.object<VlanConfig, true>({
        name: interfaceName().required(),
        parent: interfaceName().required(),
        id: Joi.number().integer().min(1).max(4094).required(),
      }),
    )
    .max(64)
    .required(),
}).id('NetworkConfig');

const linkAddress = Joi.object<LinkAddress, true>({
  address: Joi.string().required(),
  family: Joi.number().valid(4, 6).required(),
  dynamic: Joi.boolean().required(),
});

export const networkLink = Joi.object<NetworkLink, true>({
  name: Joi.string().required(),
  kind: Joi.string().valid('ethernet', 'bond', 'vlan', 'loopback', 'virtual').required(),
  mac: Joi.string().allow(null).required(),
  up: Joi.boolean().required(),
  carrier: Joi.boolean().required(),
  speedMbps: Joi.number().integer().allow(null).required(),
  mtu: Joi.number().integer().required(),
  addresses: Joi.array().items(linkAddress).required(),
  gateways: Joi.array().items(Joi.string()).required(),
  changeable: Joi.boolean().required(),
  master: Joi.string().allow(null).required(),
  bond: Joi.object({ mode: Joi.string().required(), members: Joi.array().items(Joi.string()).required() })
    .allow(null)
    .required(),
  vlan: Joi.object({ parent: Joi.string().required(), id: Joi.number().integer().required() }).allow(null).required(),
}).id('NetworkLink');

export const pendingNetworkChange = Joi.object<PendingNetworkChange, true>({
  changeId: Joi.string().uuid().required(),
  createdAt: isoTime().required(),
  deadline: isoTime().required(),
  addresses: Joi.array().items(Joi.string()).required(),
  urls: Joi.array().items(Joi.string()).required(),
  followToken: Joi.string().allow(null).required(),
}).id('PendingNetworkChange');

export const networkState = Joi.object<NetworkState, true>({
  links: Joi.array().items(networkLink).required(),
  hostName: Joi.string().allow('').required(),
  nameServers: Joi.array().items(Joi.string()).required(),
  configured: networkConfig.required(),
  connectionInterface: Joi.string().allow(null).required(),
  pending: pendingNetworkChange.allow(null).required(),
}).id('NetworkState');

export const networkCheck = Joi.object<NetworkCheck, true>({
  config: networkConfig.required(),
  changedInterfaces: Joi.array().items(Joi.string()).required(),
  hostNameChanges: Joi.boolean().required(),
  connectionInterfaceChanges: Joi.boolean().required(),
  addresses: Joi.array().items(Joi.string()).required(),
}).id('NetworkCheck');

const changeParams = Joi.object<{ changeId: string }, true>({ changeId: Joi.string().uuid().required() });
const configErrors = [
  'network.hostname.invalid',
  'network.subnet.overlap',
  'network.gateway.outside_subnet',
  'network.vlan.parent_missing',
  'network.interface.unknown',
  'network.interface.locked',
  'network.interface.duplicate',
  'network.bond.member_invalid',
  'host.tool.missing',
] as const;

export const systemNetworkRoutes = {
  network: defineRoute({
    id: 'system.network',
    method: 'GET',
    path: '/api/system/network',
    access: 'admin',
    summary:
      'Every card, bond and VLAN with link, speed and addresses; the configured state, the interface of this connection and the change awaiting confirmation',
    status: 200,
    response: networkState,
    errors: ['host.tool.missing'],
  }),
  setNetwork: defineRoute({
    id: 'system.setNetwork',
    method: 'PUT',
    path: '/api/system/network',
    access: 'admin',
    summary: 'Applies the configuration as one change, rolled back after 60 seconds unless confirmed; answers the addresses to open',
    body: networkConfig,
    status: 200,
    response: pendingNetworkChange,
    errors: [...configErrors, 'network.change.pending', 'network.change.unrecorded'],
  }),
  checkNetwork: defineRoute({
    id: 'system.checkNetwork',
    method: 'POST',
    path: '/api/system/network/check',
    access: 'admin',
    summary: 'Checks a configuration without applying it: the stored form, the interfaces that change, the addresses to open afterwards',
    body: networkConfig,
    status: 200,
    response: networkCheck,
    errors: [...configErrors],
  }),
  confirmNetwork: defineRoute({
    id: 'system.confirmNetwork',
    method: 'POST',
    path: '/api/system/network/changes/{changeId}/confirm',
    access: 'admin',
    summary: 'Keeps the pending change (before its deadline)',
    params: changeParams,
    status: 204,
    errors: ['network.change.not_found', 'network.change.expired', 'network.change.unsaved', 'network.change.unrecorded'],
  }),
  revertNetwork: defineRoute({
    id: 'system.revertNetwork',
    method: 'POST',
    path: '/api/system/network/changes/{changeId}/revert',
    access: 'admin',
    summary: 'Rolls the pending change back at once',
    params: changeParams,
    status: 204,
    errors: ['network.change.not_found', 'network.change.unrecorded'],
  }),
  followNetwork: defineRoute({
    id: 'system.followNetwork',
    method: 'POST',
    path: '/api/system/network/follow',
    access: 'public',
    summary: "Signs the administrator who applied a pending change in at the box's new address with the change's one-time follow token",
    body: Joi.object<FollowRequest, true>({ token: Joi.string().max(128).required() }).id('FollowRequest'),
    status: 204,
    // No session yet on the new address: like the sign-in requests it carries no CSRF token and refuses a cross-site Origin.
    csrfExempt: true,
    errors: ['network.follow.invalid'],
  }),
};
