import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { readBackup, sealContent, writeBackup, BackupFormatError, maxContentBytes, type BackupContent } from './backup-file.ts';
import { headerBytes, readHeader } from './header.ts';

const password = 'correct horse battery';
const content: BackupContent = {
  createdAt: '2026-11-25T12:00:00.000Z',
  box: { name: 'cellar', version: '0.1.0' },
  parts: { users: { rows: [{ id: 1, username: 'alice' }] }, region: { language: 'de', region: 'CH' } },
};
// The smallest accepted cost keeps the tests quick; the format's own default is checked once.
const quick = { log2N: 14, r: 8, p: 1 };

async function refusal(file: Uint8Array, pass = password): Promise<BackupFormatError> {
  try {
    await readBackup(file, pass);
  } catch (err) {
    expect(err).to.be.instanceOf(BackupFormatError);
    return err as BackupFormatError;
  }
  throw new Error('the file was read');
}

describe('backup file format', function () {
  this.timeout(60_000);
  let file: Buffer;
  before(async () => {
    file = await writeBackup(content, password, quick);
  });

  it('reads back what it wrote, with the default cost too', async () => {
    expect(await readBackup(file, password)).to.deep.equal(content);
    expect(await readBackup(await writeBackup(content, password), password)).to.deep.equal(content);
  });

  it('starts with the magic and version and hides the content', () => {
    expect(file.subarray(0, 8).toString('ascii')).to.equal('CELLARBK');
    expect(file.readUInt16BE(8)).to.equal(1);
    expect(file.includes(Buffer.from('alice'))).to.equal(false);
  });

  it('refuses a wrong password', async () => {
    expect((await refusal(file, 'not the password')).code).to.equal('backup.password.wrong');
  });

  it('refuses a truncated file at every length', async () => {
    for (const length of [0, 4, 9, headerBytes - 1, headerBytes + 5, file.length - 1])
      expect(['backup.file.not_backup', 'backup.file.damaged']).to.include((await refusal(file.subarray(0, length))).code, `length ${length}`);
  });

  it('refuses a flipped byte anywhere', async () => {
    // Every fixed header field, every third byte of salt, iv and verifier, and a spread of content bytes up to the tag's last.
    const positions = [...Array(headerBytes).keys()].filter((at) => at < 14 || at % 3 === 0);
    positions.push(...Array.from({ length: 12 }, (_, i) => headerBytes + Math.floor(((file.length - headerBytes) * i) / 11)));
    for (const at of new Set(positions.map((p) => Math.min(p, file.length - 1)))) {
      const changed = Buffer.from(file);
      changed[at] = (changed[at] ?? 0) ^ 0x01;
      const { code } = await refusal(changed);
      expect(code, `byte ${at}`).to.be.oneOf([
        'backup.file.not_backup',
        'backup.file.version_unsupported',
        'backup.file.parameters_refused',
        'backup.file.damaged',
        'backup.password.wrong',
      ]);
      // The content is authenticated: a change past the header is a damaged file, never a wrong password.
      if (at >= headerBytes) expect(code, `byte ${at}`).to.equal('backup.file.damaged');
    }
  });

  it('refuses an unknown version with its number', async () => {
    const changed = Buffer.from(file);
    changed.writeUInt16BE(2, 8);
    const err = await refusal(changed);
    expect(err.code).to.equal('backup.file.version_unsupported');
    expect(err.params).to.deep.equal({ version: 2 });
  });

  it('refuses oversized and hostile scrypt parameters before deriving a key', async () => {
    for (const [log2N, r, p] of [
      [30, 8, 1],
      [18, 16, 1],
      [15, 8, 200],
      [15, 0, 1],
      [10, 8, 1],
    ] as const) {
      const changed = Buffer.from(file);
      changed.writeUInt8(log2N, 10);
      changed.writeUInt8(r, 11);
      changed.writeUInt8(p, 12);
      expect((await refusal(changed)).code).to.equal('backup.file.parameters_refused');
      // Refused by the header reader alone, which runs before any key derivation.
      expect(() => readHeader(changed)).to.throw(BackupFormatError, 'backup.file.parameters_refused');
    }
    await writeBackup(content, password, { log2N: 22, r: 8, p: 1 }).then(
      () => expect.fail('written'),
      (err: BackupFormatError) => expect(err.code).to.equal('backup.file.parameters_refused'),
    );
  });

  it('refuses a file that is not a backup', async () => {
    expect((await refusal(Buffer.from('PK\u0003\u0004 a zip file, not a backup at all........................................'))).code).to.equal(
      'backup.file.not_backup',
    );
  });

  it('refuses a decompression bomb without inflating it', async () => {
    // Gzip members may follow each other: 5 copies of 16 MiB of zeros inflate past the limit from a few hundred kilobytes.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: maxContentBytes / (16 * 1024 * 1024) + 1 }, () => member));
    const err = await refusal(await sealContent(bomb, password, quick));
    expect(err.code).to.equal('backup.file.too_large');
  });

  it('refuses authentic content whose manifest does not match its parts', async () => {
    const manifest = Buffer.from(JSON.stringify({ createdAt: 'x', box: { name: 'b', version: '1' }, parts: [{ name: 'users', bytes: 5, sha256: '00' }] }));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(manifest.length);
    const packed = gzipSync(Buffer.concat([length, manifest, Buffer.from('[1,2]')]));
    const err = await refusal(await sealContent(packed, password, quick));
    expect(err.code).to.equal('backup.file.damaged');
    expect(err.params).to.deep.equal({ part: 'users' });
  });
});
