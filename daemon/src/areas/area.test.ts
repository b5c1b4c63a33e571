import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const areasDir = path.dirname(fileURLToPath(import.meta.url));
const daemonFile = path.join(areasDir, '..', 'daemon.ts');

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield path.relative(areasDir, full);
  }
}

describe('areas: one contract, built one way', () => {
  it('every area folder has its <area>.area.ts exporting a constructor, and no file keeps the old -area.ts suffix', () => {
    const folders = readdirSync(areasDir).filter((entry) => statSync(path.join(areasDir, entry)).isDirectory());
    expect(folders.length).to.be.greaterThan(10);
    for (const folder of folders) {
      const file = path.join(areasDir, folder, `${folder}.area.ts`);
      expect(() => statSync(file), `${folder}/${folder}.area.ts`).to.not.throw();
      expect(readFileSync(file, 'utf8'), `${folder}/${folder}.area.ts`).to.match(/export (async )?function create\w+Area\(/);
    }
    expect([...files(areasDir)].filter((f) => f.endsWith('-area.ts'))).to.deep.equal([]);
  });

  it('daemon.ts registers no route table itself: routes, topics and backup parts come from the areas through one loop each', () => {
    const source = readFileSync(daemonFile, 'utf8');
    expect(source).to.not.match(/registerArea|\.routes\.ts'|\.backup\.ts'|\.mount\(/);
    expect(source.match(/area\.routes/g), 'routes collected once').to.have.length(1);
    expect(source.match(/area\.topics/g), 'topics registered once').to.have.length(1);
    expect(source.match(/area\.start\?\./g), 'one start loop').to.have.length(1);
    expect(source.match(/area\.close\?\./g), 'one close loop').to.have.length(1);
  });
});
