import { expect } from 'chai';
import { passwordStrength } from './password-strength.ts';

describe('backup password strength hint', () => {
  it('calls short and repetitive passwords weak', () => {
    expect(passwordStrength('')).to.equal('weak');
    expect(passwordStrength('Ab1!xyz')).to.equal('weak');
    expect(passwordStrength('aaaaaaaaaaaaaaaaaaaa')).to.equal('weak');
  });

  it('calls ten characters fair and long or mixed ones strong', () => {
    expect(passwordStrength('tenletters')).to.equal('fair');
    expect(passwordStrength('correct horse battery')).to.equal('strong');
    expect(passwordStrength('Tw3lve!chars')).to.equal('strong');
  });
});
