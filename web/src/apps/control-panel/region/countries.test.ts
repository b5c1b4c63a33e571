import { expect } from 'chai';
import { countryCodes, namedCountries } from './countries.ts';

describe('region countries', () => {
  it('holds every code once, each the shape the API accepts', () => {
    expect(new Set(countryCodes).size).to.equal(countryCodes.length);
    expect(countryCodes.length).to.equal(249);
    for (const code of countryCodes) expect(code).to.match(/^[A-Z]{2}$/);
  });

  it('names and sorts them in the UI language', () => {
    const de = namedCountries('de');
    expect(de.find((c) => c.code === 'DE')?.name).to.equal('Deutschland');
    expect(namedCountries('en').find((c) => c.code === 'DE')?.name).to.equal('Germany');
    const names = de.map((c) => c.name);
    expect(names).to.deep.equal([...names].sort(new Intl.Collator('de').compare));
  });
});
