import { expect } from 'chai';
import { createLogger } from '../core/logger.ts';
import { ProblemError } from '../core/problem-error.ts';
import { CommandError, CommandRunner } from './command-runner.ts';

describe('CommandRunner', () => {
  const records: { message: string; argv?: unknown; stdin?: unknown }[] = [];
  const logger = createLogger({ level: 'debug', console: false, sinks: [{ write: (r) => records.push({ message: r.message, ...(r.fields as object) }) }] });

  it('runs argument arrays without a shell', async () => {
    const runner = new CommandRunner(logger, true);
    const result = await runner.run(['printf', '%s', 'a; echo injected']);
    expect(result.stdout).to.equal('a; echo injected');
  });

  it('passes standard input and never logs it', async () => {
    const runner = new CommandRunner(logger, false);
    await runner.run(['chpasswd'], { input: 'anna:secret-password' });
    const entry = records.find((r) => r.message === 'would run' && Array.isArray(r.argv) && r.argv[0] === 'chpasswd');
    expect(entry?.stdin).to.equal('[redacted]');
    expect(JSON.stringify(records)).to.not.include('secret-password');
    const real = await new CommandRunner(logger, true).run(['cat'], { input: 'hello' });
    expect(real.stdout).to.equal('hello');
  });

  it('throws a CommandError with the output on failure, or answers it when allowed', async () => {
    const runner = new CommandRunner(logger, true);
    const err = await runner.run(['sh', '-c', 'echo oops >&2; exit 3']).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(CommandError);
    expect((err as CommandError).result).to.include({ exitCode: 3, stderr: 'oops\n' });
    const allowed = await runner.run(['sh', '-c', 'exit 2'], { allowFailure: true });
    expect(allowed.exitCode).to.equal(2);
    // A program the machine lacks is a state with what to install, even when failures are allowed.
    for (const options of [{}, { allowFailure: true }]) {
      const missing = await runner.run(['zpool', 'list'], { ...options, env: { PATH: '/nonexistent' } }).catch((e: unknown) => e);
      expect(missing).to.be.instanceOf(ProblemError);
      expect(missing).to.deep.include({ code: 'host.tool.missing', status: 503, params: { tool: 'zpool', feature: 'ZFS', package: 'zfsutils-linux' } });
    }
  });

  it('refuses a plan whose program is not on PATH, naming its package, before anything runs', async () => {
    const runner = new CommandRunner(logger, true);
    await runner.requireTools(['sh', 'cat', '/bin/sh']);
    const saved = process.env.PATH;
    process.env.PATH = `${saved}:/nonexistent`;
    try {
      const missing = await runner.requireTools(['sh', 'grub-install-not-here', 'grub-install']).catch((e: unknown) => e);
      expect(missing).to.deep.include({
        code: 'host.tool.missing',
        params: { tool: 'grub-install-not-here', feature: 'grub-install-not-here', package: 'grub-install-not-here' },
      });
      process.env.PATH = '/nonexistent';
      const grub = await runner.requireTools(['grub-install']).catch((e: unknown) => e);
      expect(grub).to.deep.include({ code: 'host.tool.missing', params: { tool: 'grub-install', feature: 'the installer', package: 'grub2-common' } });
    } finally {
      process.env.PATH = saved;
    }
    // In development mode nothing runs, so nothing is required.
    await new CommandRunner(logger, false).requireTools(['grub-install-not-here']);
  });

  it('stops waiting for a command that is cancelled', async () => {
    const controller = new AbortController();
    const pending = new CommandRunner(logger, true).read(['sleep', '5'], { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const err = await pending;
    expect(err).to.be.instanceOf(CommandError);
    expect((err as CommandError).result.stderr).to.equal('cancelled');
  });

  it('kills a command past its timeout', async () => {
    const err = await new CommandRunner(logger, true).run(['sleep', '5'], { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(CommandError);
  });
});
