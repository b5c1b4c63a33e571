import { expect } from 'chai';
import { planWarningCodes } from '../../../../shared/src/api/storage/plans.ts';
import de from './i18n/de.json' with { type: 'json' };
import en from './i18n/en.json' with { type: 'json' };

describe('storage plan warnings', () => {
  it('has a text for every warning code in both languages', () => {
    for (const code of planWarningCodes) {
      const key = `storage.warning.${code}`;
      expect(en, key).to.have.property(key).that.is.a('string').and.not.empty;
      expect(de, key).to.have.property(key).that.is.a('string').and.not.empty;
    }
  });
});
