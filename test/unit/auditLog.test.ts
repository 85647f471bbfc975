import { describe, expect, it } from 'vitest';
import { auditAmountCents, auditDetails, auditKind, describeAction } from '../../shared/src/domain/auditLog';

describe('the activity log in words', () => {
  it.each([
    ['employee.paused', 'people', 'Paused'],
    ['employees.invited', 'people', 'Invited'],
    ['card.frozen', 'cards', 'Froze card'],
    ['funds.redeemed', 'money', 'Redeemed budget'],
    ['money.capture', 'money', 'Purchase settled'],
    ['cycle.funded', 'money', 'Monthly budgets charged'],
    ['billing.cardAdded', 'billing', 'Added a card'],
    ['something.new', 'people', 'something.new'],
  ])('%s is %s: "%s"', (action, kind, words) => {
    expect(auditKind(action)).toBe(kind);
    expect(describeAction(action)).toBe(words);
  });

  it('sums the positive legs of a money movement', () => {
    const legs = [
      { account: 'card:u1', amountCents: 1250 },
      { account: 'card:u2', amountCents: 1249 },
      { account: 'pool:t1', amountCents: -2499 },
    ];
    expect(auditAmountCents({ action: 'money.reallocation', after: { legs } })).toBe(2499);
  });

  it('counts only credited deposits', () => {
    const after = {
      amountCents: 5000,
      results: [{ status: 'credited' }, { status: 'declined' }, { status: 'credited' }],
    };
    expect(auditAmountCents({ action: 'funds.deposited', after })).toBe(10000);
  });

  it('reads totals of manager money actions and ignores non-integer amounts', () => {
    expect(auditAmountCents({ action: 'funds.redeemed', after: { totalCents: 3000, feeCents: 500 } })).toBe(
      3000,
    );
    expect(auditAmountCents({ action: 'funds.redeemed', after: { totalCents: 12.5 } })).toBeUndefined();
    expect(auditAmountCents({ action: 'employee.paused', after: { status: 'paused' } })).toBeUndefined();
  });

  it('gives the fee, the card, the people invited or the status change as details', () => {
    expect(auditDetails({ action: 'funds.redeemed', after: { totalCents: 3000, feeCents: 500 } })).toBe(
      'Fee $5.00',
    );
    expect(auditDetails({ action: 'billing.cardAdded', after: { last4: '4242' } })).toBe('Card ending 4242');
    expect(auditDetails({ action: 'employees.invited', after: { emails: ['a@x.test', 'b@x.test'] } })).toBe(
      'a@x.test, b@x.test',
    );
    expect(
      auditDetails({ action: 'employee.paused', before: { status: 'active' }, after: { status: 'paused' } }),
    ).toBe('active → paused');
    expect(auditDetails({ action: 'money.capture', after: { description: 'Purchase at Amazon' } })).toBe(
      'Purchase at Amazon',
    );
  });
});
