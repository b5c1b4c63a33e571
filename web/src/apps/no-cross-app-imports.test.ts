import { expect } from 'chai';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

// The repository's own eslint.config.js, so the test proves the rule `npm run lint` applies.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function crossings(code: string, filePath: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  expect(results).to.have.length(1);
  return results[0]!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('no import from one web app into another', () => {
  it('refuses an app importing from another app’s folder, however the path is written', async function () {
    this.timeout(60_000);
    const importing = [
      `import { JobRun } from '../storage-manager/job-run.svelte.ts';`,
      `import { bytesToGb } from '../../control-panel/homes/quota.ts';`,
      `import x from '../../../apps/files/FilesApp.svelte';`,
    ];
    for (const line of importing) {
      const found = await crossings(`${line}\nexport const used = [JobRun, bytesToGb, x];\n`, 'web/src/apps/app-center/cross-fixture.ts');
      expect(found, line).to.have.length(1);
      expect(found[0]).to.match(/web\/src\/lib/);
    }
  });

  it('lets an app import from web/src/lib and from its own folder', async function () {
    this.timeout(60_000);
    const code = `import { JobRun } from '../../lib/job-run.svelte.ts';\nimport en from './i18n/en.json' with { type: 'json' };\nimport p from '../app-props.ts';\nexport const used = [JobRun, en, p];\n`;
    expect(await crossings(code, 'web/src/apps/app-center/own-fixture.ts')).to.deep.equal([]);
  });

  it('finds no crossing in the apps as they are', async function () {
    this.timeout(120_000);
    const results = await eslint.lintFiles([`${root}web/src/apps`]);
    const found = results.flatMap((result) =>
      result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => `${result.filePath}:${message.line}`),
    );
    expect(found).to.deep.equal([]);
  });
});
