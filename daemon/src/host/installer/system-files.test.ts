import { expect } from 'chai';
import { fstab, grubConfig, hostNameOf, networkFile, type SystemFilesInput } from './system-files.ts';

const input: SystemFilesInput = { fileSystem: 'ext4', hostName: 'box', timeZone: 'UTC', systemUuid: 'aaaa-1', efiUuid: 'BBBB-2', network: null };

describe('installed system files', () => {
  it('makes a host name of any box name', () => {
    expect(hostNameOf('Müller’s NAS #2')).to.equal('muller-s-nas-2');
    expect(hostNameOf('!!!')).to.equal('cellar');
    expect(hostNameOf('x'.repeat(80))).to.have.length(63);
  });

  it('mounts the system by UUID for ext4 and leaves a ZFS root to the pool', () => {
    expect(fstab(input)).to.contain('UUID=aaaa-1 / ext4').and.contain('UUID=BBBB-2 /boot/efi vfat');
    expect(fstab({ ...input, fileSystem: 'zfs', systemUuid: null })).to.not.contain(' / ');
    expect(grubConfig(input)).to.contain('root=UUID=aaaa-1');
    expect(grubConfig({ ...input, fileSystem: 'zfs' })).to.contain('root=ZFS=cellar-system');
  });

  it('writes the tested network, or DHCP on every card', () => {
    expect(networkFile(null)).to.contain('Name=en* eth*').and.contain('DHCP=yes');
    const file = networkFile({ interface: 'eth0', method: 'static', address: '192.0.2.5/24', gateway: '192.0.2.1', nameservers: ['192.0.2.53'] });
    expect(file).to.contain('Address=192.0.2.5/24').and.contain('Gateway=192.0.2.1').and.contain('DNS=192.0.2.53');
  });
});
