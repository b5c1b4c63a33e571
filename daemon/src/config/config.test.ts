import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to development on 127.0.0.1:7484 with ./var', () => {
    const config = loadConfig({}, {});
    expect(config).to.include({ mode: 'development', host: '127.0.0.1', port: 7484, logLevel: 'info', adminPassword: null });
    expect(config.dataDir).to.equal(path.resolve('./var'));
    expect(Object.isFrozen(config)).to.equal(true);
  });

  it('reads the BOX_ variables and the box default data directory', () => {
    const config = loadConfig({}, { BOX_MODE: 'box', BOX_PORT: '8443', BOX_HOST: '0.0.0.0', BOX_LOG_LEVEL: 'debug', BOX_ADMIN_PASSWORD: 'pw' });
    expect(config).to.include({ mode: 'box', port: 8443, host: '0.0.0.0', logLevel: 'debug', adminPassword: 'pw', dataDir: '/var/lib/cellar' });
  });

  it('serves HTTPS on a box, plain HTTP in development unless BOX_HTTPS asks', () => {
    expect(loadConfig({}, {}).https).to.equal(false);
    expect(loadConfig({}, { BOX_MODE: 'box' }).https).to.equal(true);
    expect(loadConfig({}, { BOX_HTTPS: 'true' }).https).to.equal(true);
    expect(loadConfig({}, { BOX_MODE: 'box', BOX_HTTPS: 'false' }).https).to.equal(false);
    expect(() => loadConfig({}, { BOX_HTTPS: 'maybe' })).to.throw(ConfigError, /BOX_HTTPS: /);
  });

  it('names the variable and the problem for every bad value', () => {
    const err = (() => {
      try {
        loadConfig({}, { BOX_MODE: 'production', BOX_PORT: '70000', BOX_LOG_LEVEL: 'loud' });
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message)
      .to.match(/BOX_MODE: .*development, box/)
      .and.match(/BOX_PORT: /)
      .and.match(/BOX_LOG_LEVEL: /);
  });

  it('reads an optional JSON config file, the environment winning, and refuses unknown keys', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cellar-config-'));
    const file = path.join(dir, 'cellar.json');
    writeFileSync(file, JSON.stringify({ port: 9000, logLevel: 'warn' }));
    expect(loadConfig({}, { BOX_CONFIG: file, BOX_LOG_LEVEL: 'error' })).to.include({ port: 9000, logLevel: 'error' });
    writeFileSync(file, JSON.stringify({ port: 9000, password: 'x' }));
    expect(() => loadConfig({}, { BOX_CONFIG: file })).to.throw(ConfigError, /unknown keys: password/);
    writeFileSync(file, '{ not json');
    expect(() => loadConfig({}, { BOX_CONFIG: file })).to.throw(ConfigError, /Cannot read the config file/);
  });

  it('takes a box’s own update channel and its keys from the config file only, in every mode', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cellar-config-'));
    const file = path.join(dir, 'cellar.json');
    writeFileSync(file, JSON.stringify({ updateChannelUrl: 'http://10.0.2.100:8080/', updateKeysFile: '/etc/cellar/update-keys.json' }));
    expect(loadConfig({}, { BOX_MODE: 'box', BOX_CONFIG: file })).to.include({
      updateChannelUrl: 'http://10.0.2.100:8080/',
      updateKeysFile: '/etc/cellar/update-keys.json',
    });
    expect(loadConfig({}, { BOX_MODE: 'box' })).to.include({ updateChannelUrl: null, updateKeysFile: null });
    writeFileSync(file, JSON.stringify({ updateChannelUrl: 'file:///etc/passwd' }));
    expect(() => loadConfig({}, { BOX_CONFIG: file })).to.throw(ConfigError, /updateChannelUrl/);
  });

  it('takes extra signing keys in development mode only', () => {
    expect(loadConfig({}, { BOX_TRUSTED_KEYS: '/tmp/keys.json' }).trustedKeysFile).to.equal('/tmp/keys.json');
    expect(() => loadConfig({}, { BOX_MODE: 'box', BOX_TRUSTED_KEYS: '/tmp/keys.json' })).to.throw(ConfigError, /BOX_TRUSTED_KEYS: .*development/);
  });
});
