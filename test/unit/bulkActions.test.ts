/** The Employees screen's bulk-action availability (spec §4), one row per rule. */
import { describe, expect, it } from 'vitest';
import {
  bulkActions,
  reallocationReceivers,
  receiptFrozenToActivate,
  type SelectedEmployee,
} from '../../web/src/features/employees/bulkActions';

type Person = SelectedEmployee;
const person = (
  userId: string,
  status: Person['status'],
  cardStatus: Person['cardStatus'] = status === 'invited'
    ? 'pending'
    : status === 'deleted'
      ? 'canceled'
      : 'active',
  remainingBudgetCents = 0,
): Person => ({ userId, status, cardStatus, remainingBudgetCents });

const active = person('a', 'active');
const activeFrozen = person('af', 'active', 'inactive');
const paused = person('p', 'paused');
const pending = person('np', 'active', 'pending');
const invited = person('i', 'invited');
const deletedWithMoney = person('dm', 'deleted', 'canceled', 1234);
const deletedEmpty = person('d0', 'deleted', 'canceled', 0);

describe('pause / unpause', () => {
  it.each([
    ['nothing selected', [], null],
    ['all active: pause', [active, activeFrozen], { action: 'pause', userIds: ['a', 'af'] }],
    ['any paused: unpause', [active, paused], { action: 'unpause', userIds: ['a', 'p'] }],
    ['all deleted: hidden', [deletedWithMoney, deletedEmpty], null],
    [
      'deleted beside active: pause, the deleted left out',
      [deletedEmpty, active],
      { action: 'pause', userIds: ['a'] },
    ],
    ['only invited: hidden (no account yet)', [invited], null],
  ])('%s', (_name, selected, expected) => {
    expect(bulkActions(selected as Person[]).pause).toEqual(expected);
  });
});

describe('freeze / activate', () => {
  it.each([
    ['all cards active: freeze', [active, paused], { status: 'inactive', userIds: ['a', 'p'] }],
    [
      'any card inactive: activate only the inactive ones',
      [active, activeFrozen],
      { status: 'active', userIds: ['af'] },
    ],
    [
      'an active card beside two frozen: activate names the two, never the active one',
      [activeFrozen, active, person('pf', 'paused', 'inactive')],
      { status: 'active', userIds: ['af', 'pf'] },
    ],
    ['invited: not offered', [invited], null],
    ['deleted: not offered', [deletedWithMoney], null],
    ['no card issued yet: not offered', [pending], null],
    [
      'invited and deleted beside an active card: only that card',
      [invited, deletedEmpty, active],
      { status: 'inactive', userIds: ['a'] },
    ],
  ])('%s', (_name, selected, expected) => {
    expect(bulkActions(selected as Person[]).card).toEqual(expected);
  });
});

describe('delete', () => {
  it.each([
    ['active and paused', [active, paused], { userIds: ['a', 'p'] }],
    ['any not deleted: offered, for the active and paused only', [deletedEmpty, paused], { userIds: ['p'] }],
    ['all deleted: hidden', [deletedEmpty, deletedWithMoney], null],
    ['invited only: hidden', [invited], null],
  ])('%s', (_name, selected, expected) => {
    expect(bulkActions(selected as Person[]).delete).toEqual(expected);
  });
});

describe('reallocate and redeem', () => {
  it.each([
    ['a deleted person with money', [deletedWithMoney, active], { deletedUserIds: ['dm'] }],
    ['a deleted person with nothing left: hidden', [deletedEmpty], null],
    ['money on an active person does not count', [person('rich', 'active', 'active', 5000)], null],
    ['several deleted: only those with money', [deletedEmpty, deletedWithMoney], { deletedUserIds: ['dm'] }],
  ])('%s', (_name, selected, expected) => {
    const actions = bulkActions(selected as Person[]);
    expect(actions.reallocate).toEqual(expected);
    expect(actions.redeem).toEqual(expected);
  });
});

describe('withdraw invitation', () => {
  const invitedToo = person('invite:b@x.test', 'invited');
  it.each([
    ['one invited person', [invited], { userIds: ['i'] }],
    [
      'invited beside members: only the invited',
      [active, invited, deletedEmpty, invitedToo],
      { userIds: ['i', 'invite:b@x.test'] },
    ],
    ['no invited person: hidden', [active, paused, deletedWithMoney], null],
    ['nothing selected: hidden', [], null],
  ])('%s', (_name, selected, expected) => {
    expect(bulkActions(selected as Person[]).withdraw).toEqual(expected);
  });
});

it('receivers of a reallocation are active or paused members, never invited or deleted', () => {
  expect(reallocationReceivers([active, paused, invited, deletedWithMoney]).map((p) => p.userId)).toEqual([
    'a',
    'p',
  ]);
});

describe('a dormant person (card inactive, paused after 13 months without a purchase)', () => {
  const dormant: Person = { ...person('z', 'paused', 'inactive', 3000), dormancy: { stage: 'dormant' } };
  const warned: Person = { ...person('w', 'active', 'active', 3000), dormancy: { stage: 'noticed' } };
  it('their money can be reallocated or redeemed without deleting them; unpausing is offered', () => {
    const actions = bulkActions([dormant]);
    expect(actions.reallocate).toEqual({ deletedUserIds: ['z'] });
    expect(actions.redeem).toEqual({ deletedUserIds: ['z'] });
    expect(actions.pause).toEqual({ action: 'unpause', userIds: ['z'] });
  });
  it('someone only told they are going dormant keeps their money', () => {
    expect(bulkActions([warned]).reallocate).toBeNull();
  });
});

describe('bulk Activate asks first for a card frozen for an overdue receipt', () => {
  const late: Person = { ...person('late', 'active', 'inactive'), freezeReasons: ['missingReceipt'] };
  const lateAndManager: Person = {
    ...person('both', 'active', 'inactive'),
    freezeReasons: ['manager', 'missingReceipt'],
  };
  const managerFrozen: Person = { ...person('m', 'active', 'inactive'), freezeReasons: ['manager'] };
  const ids = (selected: Person[]) => receiptFrozenToActivate(selected).map((p) => p.userId);

  it.each([
    ['a receipt freeze beside an active card: named', [active, late], ['late']],
    ['a receipt freeze beside a manager’s own: named', [lateAndManager, managerFrozen], ['both']],
    ['only a manager’s freeze: one click', [managerFrozen, active], []],
    ['nothing to activate (all active, the action is Freeze): one click', [active, paused], []],
    ['a deleted person is never activated', [{ ...late, status: 'deleted' as const }], []],
  ])('%s', (_name, selected, expected) => {
    expect(ids(selected as Person[])).toEqual(expected);
  });
});
