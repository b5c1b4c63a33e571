import { defineErrors } from './catalog-entry.ts';

/** Codes of the network part of the System area (`network.*`): every one is answered before anything is touched. */
export const networkErrors = defineErrors({
  'network.hostname.invalid': {
    status: 400,
    title: 'The host name is not a valid name (letters, digits and hyphens, labels of at most 63)',
    params: ['hostName'],
  },
  'network.subnet.overlap': { status: 400, title: 'Two interfaces have overlapping subnets', params: ['interface', 'other', 'subnet'] },
  'network.gateway.outside_subnet': { status: 400, title: 'The gateway is outside every subnet of its interface', params: ['interface', 'gateway'] },
  'network.vlan.parent_missing': { status: 400, title: 'The VLAN names a parent that is neither a card nor a bond', params: ['vlan', 'parent'] },
  'network.interface.unknown': { status: 400, title: 'No card, bond or VLAN has this name', params: ['interface'] },
  'network.interface.locked': { status: 400, title: 'This interface may not be changed here', params: ['interface'] },
  'network.interface.duplicate': { status: 400, title: 'An interface is named twice (or is a bond member and configured on its own)', params: ['interface'] },
  'network.bond.member_invalid': { status: 400, title: 'A bond member is not a changeable card of the box', params: ['bond', 'member'] },
  'network.change.pending': { status: 409, title: 'Another network change awaits confirmation', params: ['changeId'] },
  'network.change.not_found': { status: 404, title: 'No network change with this id awaits confirmation', params: ['changeId'] },
  'network.change.expired': { status: 409, title: 'The change was not confirmed in time and was rolled back', params: ['changeId'] },
  'network.change.unsaved': {
    status: 507,
    title: 'The confirmation could not be written to the data directory; the change still awaits confirmation',
    params: ['changeId'],
  },
  'network.change.unrecorded': {
    status: 507,
    title: 'The change is kept on the box, but its record could not be written to the data directory yet; it is recorded once that works again',
    params: ['changeId'],
  },
  'network.follow.invalid': { status: 401, title: 'The follow token is unknown, used, or its change is over' },
});
