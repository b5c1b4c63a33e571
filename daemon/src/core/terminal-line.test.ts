import { expect } from 'chai';
import { createLogger } from './logger.ts';
import { terminalLine } from './terminal-line.ts';

const at = '2026-11-25T03:04:05.000Z';
const local = (iso: string) => {
  const d = new Date(iso);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

/** What the console transport writes while `log` runs; stdout is put back afterwards. */
async function consoleOutput(terminal: boolean, log: (logger: ReturnType<typeof createLogger>) => void): Promise<string> {
  const written: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    const logger = createLogger({ level: 'debug', console: true, sinks: [], terminal });
    log(logger);
    await new Promise((resolve) => setImmediate(resolve));
    logger.close();
  } finally {
    process.stdout.write = write;
  }
  return written.join('');
}

describe('terminal log lines', () => {
  it('prints time, level, component, message and fields on one line', () => {
    const line = terminalLine({ level: 'info', message: 'signed in', timestamp: at, component: 'auth', source: 'daemon', userId: 3, how: 'password' }, false);
    expect(line).to.equal(`${local(at)} info  auth signed in userId=3 how=password`);
  });

  it('cuts whole files and long values to their first line, quoting values with spaces', () => {
    const smbConf = '[global]\n  workgroup = WORKGROUP\n  server role = standalone server\n';
    const line = terminalLine(
      {
        level: 'debug',
        message: 'would write',
        timestamp: at,
        component: 'file-services',
        file: '/etc/samba/smb.conf',
        content: smbConf,
        note: 'x'.repeat(100),
      },
      false,
    );
    expect(line).to.not.include('\n');
    expect(line).to.include('file=/etc/samba/smb.conf content=[global]… ');
    expect(line).to.include(`note=${'x'.repeat(60)}…`);
    expect(terminalLine({ level: 'warn', message: 'm', timestamp: at, reason: 'a b', argv: ['zpool', 'list'] }, false)).to.match(
      /daemon m reason="a b" argv=\["zpool","list"\]$/,
    );
  });

  it('shows a few fields and counts the rest', () => {
    const fields = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, i]));
    const line = terminalLine({ level: 'info', message: 'many', timestamp: at, ...fields }, false);
    expect(line).to.match(/ f5=5 \+2 more$/);
    expect(line).to.not.include('f6=');
  });

  it('colours the level only when asked', () => {
    expect(terminalLine({ level: 'error', message: 'boom', timestamp: at }, true)).to.include('\u001b[31merror\u001b[0m');
    expect(terminalLine({ level: 'error', message: 'boom', timestamp: at }, false)).to.not.include('\u001b');
  });

  it('is what the console prints on a terminal, redacted; JSON otherwise', async () => {
    const human = await consoleOutput(true, (logger) => logger.info('sign-in', { component: 'auth', password: 'hunter2', address: '127.0.0.1' }));
    // eslint-disable-next-line no-control-regex -- the colour codes are what is stripped
    expect(human.replace(/\u001b\[\d+m/g, '')).to.match(/^\d\d:\d\d:\d\d info {2}auth sign-in password=\[redacted\] address=127\.0\.0\.1\n$/);
    expect(human).to.not.include('hunter2');
    const json = await consoleOutput(false, (logger) => logger.info('sign-in', { component: 'auth', password: 'hunter2' }));
    expect(JSON.parse(json)).to.include({ message: 'sign-in', component: 'auth', password: '[redacted]' });
  });
});
