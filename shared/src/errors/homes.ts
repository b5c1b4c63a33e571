import { defineErrors } from './catalog-entry.ts';

/** Codes of users' homes on the home pool (`homes.*`). */
export const homesErrors = defineErrors({
  'homes.home.not_found': { status: 404, title: 'There is no such home', params: ['shareId', 'userId'] },
  'homes.home.in_use': {
    status: 409,
    title: 'The home belongs to an existing user; only a deleted user’s home can be deleted or released',
    params: ['shareId'],
  },
  'homes.confirm.mismatch': { status: 400, title: 'confirm must equal the home’s folder name', params: ['expected'] },
  'homes.pool.unusable': { status: 409, title: 'The pool cannot take homes (not healthy or read-only)', params: ['pool'] },
  'homes.pool.same': { status: 409, title: 'The homes are already on this pool', params: ['pool'] },
  'homes.pool.has_homes': { status: 409, title: 'Homes exist already: move them with POST /api/homes/move', params: ['pool'] },
  'homes.pool.none': { status: 409, title: 'There is no home pool yet' },
});
