import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AUDIT_ACTIONS,
  auditAmountCents,
  auditDetails,
  auditKind,
  describeAction,
  MONEY_ACTIONS,
} from '@shared/domain/auditLog';
import { describe, expect, it } from 'vitest';

/** Every quoted `'area.verb'` action the server's services pass to the audit log, read from the source. */
function actionsWrittenByServer(): string[] {
  const dir = join(__dirname, '../../lambdas/src/services');
  const found = new Set<string>();
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    // recordAudit, a manager action's audit(...), or a system entry written with the change (systemAudit.ts).
    if (!/recordAudit|audit\(|auditTransactItem/.test(text)) continue;
    // `action: 'x.y'`, `audit(actor, 'x.y'` and both sides of `cond ? 'x.y' : 'x.z'` in an audit call.
    for (const call of text.matchAll(/(?:action:|audit\()([^;]*?)(?:,\s*(?:now|\{)|\n\s*\w+:)/gs))
      for (const literal of (call[1] ?? '').matchAll(/'([a-z]+\.[a-zA-Z]+)'/g))
        found.add(literal[1] as string);
  }
  return [...found].sort();
}

describe('the activity log in words', () => {
  it.each([
    ['employee.paused', 'people', 'Paused'],
    ['employees.invited', 'people', 'Invited'],
    ['invitation.withdrawn', 'people', 'Invitation withdrawn'],
    ['card.frozen', 'cards', 'Froze card'],
    ['funds.redeemed', 'money', 'Redeemed budget'],
    ['money.capture', 'money', 'Purchase settled'],
    ['cycle.funded', 'money', 'Monthly budgets charged'],
    ['billing.cardAdded', 'billing', 'Added a card'],
    ['receipt.seen', 'people', 'Viewed a receipt'],
    ['receipt.uploaded', 'people', 'Uploaded a receipt'],
    ['card.receiptFreeze', 'cards', 'Froze card: receipt overdue'],
    ['card.receiptFreezeLifted', 'cards', 'Lifted the receipt freeze'],
    ['card.dormant', 'cards', 'Made card inactive and paused'],
    ['something.new', 'people', 'something.new'],
  ])('%s is %s: "%s"', (action, kind, words) => {
    expect(auditKind(action)).toBe(kind);
    expect(describeAction(action)).toBe(words);
  });

  it('has words for every action the server writes, and every money movement', () => {
    const written = actionsWrittenByServer();
    // The scan finds the services' audit calls (so it cannot pass by finding nothing)...
    expect(written).toEqual(
      expect.arrayContaining([
        'card.activated',
        'employee.unpaused',
        'receipt.seen',
        'cycle.funded',
        'card.receiptFreeze',
        'card.receiptFreezeLifted',
        'card.dormant',
      ]),
    );
    // ...each of which is a declared action (recordAudit's type allows no other)...
    expect(AUDIT_ACTIONS).toEqual(expect.arrayContaining(written));
    // ...and every declared one reads as words, not as its raw name.
    for (const action of [...AUDIT_ACTIONS, ...MONEY_ACTIONS]) {
      const words = describeAction(action);
      expect(words, action).not.toBe(action);
      expect(words, action).not.toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    }
  });

  it('says why the system froze, unfroze or deactivated a card, and which card', () => {
    const overdue = [
      { purchaseId: 'ipi_1', merchant: 'Powell’s Books', amountCents: 1299, overdueSince: '2026-03-10' },
      { purchaseId: 'ipi_2', merchant: 'Udemy', amountCents: 2000, overdueSince: '2026-03-11' },
    ];
    expect(auditDetails({ action: 'card.receiptFreeze', after: { last4: '4242', overdue } })).toBe(
      'Card ending in 4242: receipt for Powell’s Books $12.99 overdue since 03/10/2026; ' +
        'receipt for Udemy $20.00 overdue since 03/11/2026',
    );
    expect(
      auditDetails({ action: 'card.receiptFreezeLifted', after: { last4: '4242', stillFrozenFor: [] } }),
    ).toBe('Card ending in 4242: every overdue receipt is in');
    expect(
      auditDetails({
        action: 'card.receiptFreezeLifted',
        after: { last4: '4242', stillFrozenFor: ['manager'] },
      }),
    ).toBe('Card ending in 4242: every overdue receipt is in; still frozen: frozen by a manager');
    expect(
      auditDetails({
        action: 'card.dormant',
        before: { status: 'active' },
        after: { last4: '4242', status: 'paused' },
      }),
    ).toBe('Card ending in 4242: no purchase for 13 months');
    // Someone without a card is still paused, and the reason still shows.
    expect(auditDetails({ action: 'card.dormant', after: { status: 'paused' } })).toBe(
      'no purchase for 13 months',
    );
  });

  it('names a card on file by brand and last 4 when one is added, made primary or deleted', () => {
    expect(auditDetails({ action: 'billing.defaultCard', after: { brand: 'Visa', last4: '4242' } })).toBe(
      'Visa ending in 4242',
    );
    expect(
      auditDetails({ action: 'billing.cardDeleted', before: { brand: 'MasterCard', last4: '4444' } }),
    ).toBe('Mastercard ending in 4444');
  });

  it('gives a receipt event its title, or why it was refused', () => {
    expect(auditDetails({ action: 'receipt.uploaded', after: { title: 'Deep Work' } })).toBe('Deep Work');
    expect(auditDetails({ action: 'receipt.refused', after: { reason: 'Too big' } })).toBe('Too big');
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

  it('says what a reactivated person got back from the team pool (issue 28)', () => {
    const reactivated = (pooledCents: number, returnedCents: number) =>
      auditDetails({
        action: 'employee.reactivated',
        after: { status: 'active', pooledCents, returnedCents },
      });
    expect(reactivated(1500, 1500)).toBe('New card; $15.00 back from the team pool');
    expect(reactivated(1500, 400)).toBe(
      'New card; $4.00 back from the team pool (of $15.00: $11.00 was already reallocated or redeemed)',
    );
    expect(reactivated(1500, 0)).toBe(
      'New card; $0.00 back from the team pool (of $15.00: $15.00 was already reallocated or redeemed)',
    );
    expect(reactivated(0, 0)).toBe('New card; nothing of theirs was in the team pool');
  });

  it('gives the fee, the card, the people invited or the status change as details', () => {
    expect(auditDetails({ action: 'funds.redeemed', after: { totalCents: 3000, feeCents: 500 } })).toBe(
      '$25.00 refunded to the team’s card; fee $5.00',
    );
    expect(auditDetails({ action: 'billing.cardAdded', after: { last4: '4242' } })).toBe(
      'Card ending in 4242',
    );
    expect(auditDetails({ action: 'employees.invited', after: { emails: ['a@x.test', 'b@x.test'] } })).toBe(
      'a@x.test, b@x.test',
    );
    // Invited again with another budget: which budget the new one replaced.
    expect(
      auditDetails({
        action: 'employees.invited',
        after: { emails: ['a@x.test', 'b@x.test'], budgetCents: 6000, replacedBudgets: { 'b@x.test': 4000 } },
      }),
    ).toBe('a@x.test, b@x.test (budget $40.00 → $60.00)');
    expect(
      auditDetails({ action: 'invitation.withdrawn', after: { emails: ['c@x.test'], budgetCents: 4000 } }),
    ).toBe('c@x.test');
    expect(
      auditDetails({ action: 'employee.paused', before: { status: 'active' }, after: { status: 'paused' } }),
    ).toBe('active → paused');
    expect(auditDetails({ action: 'money.capture', after: { description: 'Purchase at Amazon' } })).toBe(
      'Purchase at Amazon',
    );
    // A monthly credit posted before the renewal named its month in words reads in words all the same.
    expect(
      auditDetails({ action: 'money.funding', after: { description: 'Learning budget for 2026-12' } }),
    ).toBe('Learning budget for December 2026');
  });

  describe('money moved between people says whose it was and where it went', () => {
    const names = { omar: 'Omar Diaz', ana: 'Ana Lee', priya: 'Priya Shah', sam: 'Sam Rivera' };
    const receivers = 'Ana Lee $10.00, Priya Shah $10.00, Sam Rivera $10.00';

    it('a reallocation, on the ledger’s row and the manager’s', () => {
      const legs = [
        { account: 'pool:t1', amountCents: -3000 },
        { account: 'card:ana', amountCents: 1000 },
        { account: 'card:priya', amountCents: 1000 },
        { account: 'card:sam', amountCents: 1000 },
      ];
      expect(
        auditDetails({
          action: 'money.reallocation',
          after: { description: 'Reallocated funds', legs, user: 'omar' },
          names,
        }),
      ).toBe(`From Omar Diaz: ${receivers}`);
      expect(
        auditDetails({
          action: 'funds.reallocated',
          after: { from: ['omar'], totalCents: 3000, shares: { ana: 1000, priya: 1000, sam: 1000 } },
          names,
        }),
      ).toBe(`From Omar Diaz: ${receivers}`);
      // Someone no longer on the team's list is still shown, as the log's "To whom" shows them.
      expect(
        auditDetails({ action: 'funds.reallocated', after: { from: ['gone'], shares: { ana: 500 } }, names }),
      ).toBe('From Former member: Ana Lee $5.00');
    });

    it('a redemption: what was refunded to the team’s card and the fee', () => {
      const legs = [
        { account: 'pool:t1', amountCents: -2500 },
        { account: 'revenue:t1', amountCents: 500 },
        { account: 'external:t1', amountCents: 2000 },
      ];
      expect(
        auditDetails({ action: 'money.redemption', after: { description: 'Redeemed', legs, user: 'omar' } }),
      ).toBe('$20.00 refunded to the team’s card; fee $5.00');
      expect(
        auditDetails({
          action: 'funds.redeemed',
          after: { from: ['omar', 'sam'], totalCents: 6000, feeCents: 1100 },
          names,
        }),
      ).toBe('From Omar Diaz, Sam Rivera: $49.00 refunded to the team’s card; fee $11.00');
    });

    it('a deposit for several names them, and whom it did not reach', () => {
      const results = [
        { userId: 'ana', status: 'credited' },
        { userId: 'priya', status: 'credited' },
        { userId: 'sam', status: 'declined' },
      ];
      expect(auditDetails({ action: 'funds.deposited', after: { amountCents: 2000, results }, names })).toBe(
        '$20.00 each to Ana Lee, Priya Shah; declined: Sam Rivera',
      );
      // One person is the row's "To whom": nothing more to say.
      expect(
        auditDetails({
          action: 'funds.deposited',
          after: { amountCents: 2000, results: [{ userId: 'ana', status: 'credited' }] },
          names,
        }),
      ).toBeUndefined();
    });
  });

  it('says what a profile edit changed: the budget, the name, the job role', () => {
    const leo = { firstName: 'Leo', lastName: 'Martin', jobRole: 'Engineering' };
    const edit = (before: Record<string, unknown>, after: Record<string, unknown>) =>
      auditDetails({ action: 'employee.updated', before, after });
    expect(edit({ ...leo, nextBudgetCents: 2500 }, { ...leo, nextBudgetCents: 3000 })).toBe(
      'Budget $25.00 → $30.00',
    );
    expect(edit({ ...leo, nextBudgetCents: 3000 }, { ...leo, nextBudgetCents: 0 })).toBe(
      'Budget $30.00 → $0.00',
    );
    expect(
      edit(
        { ...leo, nextBudgetCents: 2500 },
        { ...leo, lastName: 'Martins', jobRole: null, nextBudgetCents: 2500 },
      ),
    ).toBe('Name Leo Martin → Leo Martins; Job role Engineering → None');
    // An entry written before it kept the budget before the edit.
    expect(edit(leo, { ...leo, nextBudgetCents: 3000 })).toBe('Budget set to $30.00');
    expect(edit({ ...leo, nextBudgetCents: 2500 }, { ...leo, nextBudgetCents: 2500 })).toBeUndefined();
  });
});
