// QEMU's guestfwd runs this once per connection the guest opens to the update channel's address
// (test/vm/qemu.ts): its standard input and output are that connection, carried on to the channel
// served on this machine's loopback, port argv[2]. Nothing may go to standard error: libslirp
// gives the connection there too.
import { connect } from 'node:net';

const channel = connect(Number(process.argv[2]), '127.0.0.1');
process.stdin.pipe(channel);
channel.pipe(process.stdout);
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(1));
