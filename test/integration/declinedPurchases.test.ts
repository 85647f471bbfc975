/**
 * Declined purchases in Purchase History and the Statement (issue 25): each
 * decline the card network hears (the emulator's signed authorization
 * webhook, as a merchant would ask) is listed, marked declined with the reason
 * the employee was given, its price shown but taken from no balance, no
 * receipt asked for, and it pages like purchases do, however many there are.
 * The manager's CSV export stays a list of purchases (it has no status column).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWithCard } from '../support/cardNetwork';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

interface Row {
  purchaseId: string;
  date: string;
  amountCents: number;
  vendor: string;
  status: string;
  declineReason?: string;
  receipt: { state: string };
  employeeName?: string;
}

interface Line {
  entryId: string;
  type: string;
  label: string;
  description: string;
  detail?: string;
  amountCents: number;
  declinedCents?: number;
  availableCents: number;
  onHoldCents: number;
  owedCents: number;
}

const UDEMY = { name: 'Udemy', category: 'educational_services' };

/** Every row of the list, page by page, as the web app reads it. */
async function everyRow(token: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await send('GET', `/purchases?limit=${limit}${query}`, token);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.purchases.length).toBeLessThanOrEqual(limit);
    rows.push(...page.body.purchases);
    cursor = page.body.nextCursor;
    if (!cursor) return rows;
  }
  throw new Error('the list never ended');
}

describe('declined purchases', () => {
  it('are listed in Purchase History and the Statement, marked declined with the reason, and change no balance', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    expect((await payWithCard(stack, employee.cardId, 700, UDEMY)).approved).toBe(true);
    const before = (await send('GET', '/me/balance', employee.accessToken)).body;
    expect(before.availableCents).toBe(1800);

    const first = await payWithCard(stack, employee.cardId, 4120);
    expect(first.approved).toBe(false);
    const { lastDecline } = (await send('GET', '/me/balance', employee.accessToken)).body;
    // The reason in the product's words, as the card dialog shows it.
    expect(lastDecline.reason).toBe('$41.20 is above your $18.00 balance.');
    expect((await payWithCard(stack, employee.cardId, 2500)).approved).toBe(false);

    const after = (await send('GET', '/me/balance', employee.accessToken)).body;
    expect(after).toMatchObject({
      availableCents: before.availableCents,
      onHoldCents: before.onHoldCents,
      owedCents: before.owedCents,
    });

    // The employee's own history: both declines, newest first, above the purchase made before them.
    const mine = await send('GET', '/purchases', employee.accessToken);
    expect(mine.status).toBe(200);
    const rows = mine.body.purchases as Row[];
    expect(rows.map((r) => [r.status, r.amountCents])).toEqual([
      ['declined', 2500],
      ['declined', 4120],
      ['settled', 700],
    ]);
    expect(rows[1]).toMatchObject({
      purchaseId: first.authorization?.id,
      vendor: 'Powell’s Books',
      declineReason: '$41.20 is above your $18.00 balance.',
      receipt: { state: 'none' },
    });
    expect(rows[0]?.declineReason).toBe('$25.00 is above your $18.00 balance.');
    // The purchase still asks for its receipt; a decline never does.
    expect(rows[2]?.receipt.state).toBe('awaiting');
    expect(rows.filter((r) => r.receipt.state === 'awaiting' || r.receipt.state === 'overdue')).toHaveLength(
      1,
    );

    // The manager's team view lists them too, with the employee's name.
    const team = await send('GET', '/purchases', manager.accessToken);
    const teamRows = team.body.purchases as Row[];
    expect(teamRows.map((r) => [r.status, r.employeeName, r.declineReason ?? null])).toEqual([
      ['declined', 'Eddie Employee', '$25.00 is above your $18.00 balance.'],
      ['declined', 'Eddie Employee', '$41.20 is above your $18.00 balance.'],
      ['settled', 'Eddie Employee', null],
    ]);

    // The statement: each decline where it happened, its price shown, no movement, the balances as they stood.
    const statement = await send('GET', '/me/statement', employee.accessToken);
    expect(statement.status).toBe(200);
    const lines = statement.body.lines as Line[];
    const declined = lines.filter((l) => l.type === 'declined');
    expect(declined.map((l) => l.declinedCents)).toEqual([2500, 4120]);
    expect(declined[1]).toMatchObject({
      label: 'Declined',
      description: 'Purchase at Powell’s Books',
      detail: '$41.20 is above your $18.00 balance. Nothing was taken from your balance.',
      amountCents: 0,
      availableCents: 1800,
      onHoldCents: 0,
      owedCents: 0,
    });
    // The newest row is a decline: the balances after it are the card's balances now.
    expect(lines[0]).toMatchObject({ type: 'declined', availableCents: after.availableCents });
    // The movements alone add up to the balance: the declines add nothing.
    expect(lines.reduce((sum, l) => sum + (l.type === 'purchase' ? 0 : l.amountCents), 0)).toBe(
      after.availableCents + after.onHoldCents,
    );

    // The CSV export is a list of purchases (no status column): declines stay out of it.
    const now = new Date();
    const month = (d: Date) => d.toISOString().slice(0, 7);
    const from = month(new Date(now.getTime() - 20 * 86_400_000));
    const to = month(new Date(now.getTime() + 20 * 86_400_000));
    const csv = await fetch(`${stack.apiUrl}/team/purchases.csv?from=${from}&to=${to}`, {
      headers: { authorization: `Bearer ${manager.accessToken}`, [CLIENT_IP_HEADER]: newClientIp() },
    });
    const body = await csv.text();
    expect(csv.status, body).toBe(200);
    expect(body.trim().split('\n')).toHaveLength(2);
    expect(body).toContain('7.00');
    expect(body).not.toContain('41.20');
  });

  it('page with the purchases, each row once, newest first, however many times the card was tried', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 10);
    const tries = [1500, 1600, 1700, 1800, 1900];
    expect((await payWithCard(stack, employee.cardId, 300, UDEMY)).approved).toBe(true);
    for (const cents of tries.slice(0, 3))
      expect((await payWithCard(stack, employee.cardId, cents)).approved).toBe(false);
    expect((await payWithCard(stack, employee.cardId, 200, UDEMY)).approved).toBe(true);
    for (const cents of tries.slice(3))
      expect((await payWithCard(stack, employee.cardId, cents)).approved).toBe(false);

    for (const limit of [1, 2, 3, 25]) {
      const rows = await everyRow(employee.accessToken, limit);
      // Every row once, merged by date; a purchase is dated by its capture (the network's whole
      // second), so where the $2.00 falls beside the decline made just before it depends on the clock.
      expect(rows.map((r) => r.amountCents).sort((a, b) => a - b)).toEqual([
        200, 300, 1500, 1600, 1700, 1800, 1900,
      ]);
      expect(rows.filter((r) => r.status === 'declined').map((r) => r.amountCents)).toEqual(
        [...tries].reverse(),
      );
      // The two purchases are dated by their captures, whole seconds that may be equal (or land in
      // either order on a loaded machine): their order is the dates' order, checked below.
      expect(
        rows
          .filter((r) => r.status !== 'declined')
          .map((r) => r.amountCents)
          .sort((a, b) => a - b),
      ).toEqual([200, 300]);
      expect(new Set(rows.map((r) => r.purchaseId)).size).toBe(rows.length);
      const dates = rows.map((r) => r.date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    const teamRows = await everyRow(manager.accessToken, 2);
    expect(teamRows.map((r) => [r.status, r.amountCents])).toEqual(
      (await everyRow(employee.accessToken, 25)).map((r) => [r.status, r.amountCents]),
    );
    const bad = await send('GET', '/purchases?cursor=not-a-cursor', employee.accessToken);
    expect(bad.status).toBe(400);
  });
});
