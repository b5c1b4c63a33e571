import { expect } from 'chai';
import { sessionsOf } from './smb-status.ts';

describe('smbstatus --json', () => {
  it('joins each session with the shares it has connected, leaving out IPC$, sorted by user', () => {
    const status = {
      sessions: {
        '3': { session_id: '3', username: 'bert', remote_machine: '192.0.2.7', session_dialect: 'SMB3_11', encryption: { cipher: 'AES-128-GCM' } },
        '1': {
          session_id: '1',
          username: 'anna',
          remote_machine: '',
          hostname: 'ipv4:198.51.100.2:50112',
          session_dialect: 'SMB2_10',
          encryption: { cipher: '' },
        },
      },
      tcons: {
        a: { session_id: '3', service: 'IPC$' },
        b: { session_id: '3', service: 'Photos' },
        c: { session_id: '3', service: 'Family' },
        d: { session_id: '3', service: 'Family' },
      },
    };
    expect(sessionsOf(status)).to.deep.equal([
      { username: 'anna', client: 'ipv4:198.51.100.2:50112', protocol: 'SMB2_10', encrypted: false, shares: [] },
      { username: 'bert', client: '192.0.2.7', protocol: 'SMB3_11', encrypted: true, shares: ['Family', 'Photos'] },
    ]);
  });

  it('answers no sessions for a server nobody has connected to', () => {
    expect(sessionsOf({ sessions: {}, tcons: {} })).to.deep.equal([]);
    expect(sessionsOf({})).to.deep.equal([]);
  });
});
