import { expect } from 'chai';
import { classifySsh } from './failure-codes.ts';
import { sshArgv } from './ssh-target.ts';

const at = (exitCode: number | null, stderr: string, streamStarted = true) => classifySsh({ exitCode, stderr, streamStarted });

describe('replication failure codes from ssh and zfs receive', () => {
  it('reads ssh’s own failures (exit 255): host keys, a removed pairing, an unreachable box, a lost link', () => {
    expect(at(255, '@@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@\nHost key verification failed.')).to.equal('host-key-changed');
    expect(at(255, 'No ED25519 host key is known for [10.0.0.2]:22 and you have requested strict checking.\nHost key verification failed.')).to.equal(
      'host-key-unknown',
    );
    expect(at(255, 'root@10.0.0.2: Permission denied (publickey).')).to.equal('pairing-refused');
    expect(at(255, 'ssh: connect to host 10.0.0.2 port 22: Connection refused', false)).to.equal('target-unreachable');
    expect(at(255, 'Timeout, server 10.0.0.2 not responding.')).to.equal('connection-lost');
    expect(at(255, 'client_loop: send disconnect: Broken pipe')).to.equal('connection-lost');
  });

  it('reads the forced command and zfs receive through ssh', () => {
    expect(at(2, 'cellar: refused: only "receive <dataset>" and "list <dataset>" are allowed')).to.equal('refused-by-target');
    expect(at(1, 'cannot receive new filesystem stream: out of space')).to.equal('target-pool-full');
    expect(at(1, 'cannot receive incremental stream: most recent snapshot of t/r/a does not\nmatch incremental source')).to.equal('no-common-snapshot');
    expect(at(1, 'cannot receive incremental stream: destination t/r/a has been modified\nsince most recent snapshot')).to.equal('target-modified');
    expect(at(1, "cannot receive new filesystem stream: destination 't/r/a' exists\nmust specify -F to overwrite it")).to.equal('target-exists');
    expect(at(1, 'cannot receive: failed to read from stream')).to.equal('send-failed');
    expect(at(0, '')).to.equal(null);
  });
});

describe('replication ssh argument array', () => {
  const target = { host: '10.213.7.2', port: 2222, user: 'cellar-replica', keyPath: '/k', knownHostsPath: '/kh' };

  it('pins the host key, offers only the pairing key, never asks, and sends one request line', () => {
    const argv = sshArgv(target, 'receive', 'photos/2026');
    expect(argv.slice(-3)).to.deep.equal(['--', '10.213.7.2', 'receive photos/2026']);
    for (const option of ['BatchMode=yes', 'IdentitiesOnly=yes', 'StrictHostKeyChecking=yes', 'UserKnownHostsFile=/kh', 'ServerAliveInterval=5']) {
      expect(argv).to.include(option);
    }
  });

  it('refuses a suffix or a host that could carry another word or an option', () => {
    for (const suffix of ['a b', '-oProxyCommand=x', 'a;id', '', 'a//b', 'x\nlist y']) expect(() => sshArgv(target, 'list', suffix), suffix).to.throw(/suffix/);
    for (const host of ['-oProxyCommand=x', 'a b', '']) expect(() => sshArgv({ ...target, host }, 'list', 'a'), host).to.throw(/address/);
  });
});
