import { describe, expect, it } from 'vitest';
import { packagesFor } from './index';

describe('the packages resource per role', () => {
  it('gives an admin the list, details, create and edit pages', () => {
    expect(Object.keys(packagesFor('ADMIN')).sort()).toEqual(
      ['create', 'edit', 'icon', 'list', 'recordRepresentation', 'show'].sort(),
    );
  });

  it('gives a manager the list and details only, so the create and edit routes do not exist for them', () => {
    const manager = packagesFor('MANAGER');
    expect(manager.create).toBeUndefined();
    expect(manager.edit).toBeUndefined();
    expect(manager.list).toBe(packagesFor('ADMIN').list);
    expect(manager.show).toBe(packagesFor('ADMIN').show);
  });
});
