import { expect } from 'chai';
import { groupDescription } from './group-description.ts';

describe('group descriptions', () => {
  it('shows the built-in group users in the reader language', () => {
    const users = { description: 'Every user of the box', descriptionCode: 'users' };
    expect(groupDescription('de', users)).to.equal('Alle Benutzer der Box');
    expect(groupDescription('en', users)).to.equal('Every user of the box');
  });

  it('shows what an administrator wrote, and the stored text for a code this UI does not know', () => {
    expect(groupDescription('de', { description: 'Family photos', descriptionCode: null })).to.equal('Family photos');
    expect(groupDescription('de', { description: 'Newer', descriptionCode: 'newer' })).to.equal('Newer');
  });
});
