/**
 * Issue 25, "One calendar": the team's time zone decides every date the
 * product prints. One purchase made at 23:15 in Los Angeles - already the next
 * day in UTC and in New York, the two calendars the product used before - is
 * dated the Los Angeles day in the receipt e-mail, the CSV export and the
 * purchase list's due day, and the invoice of the charge made that evening is
 * dated that day too. The screens print the same (test/e2e/teamCalendar.test.ts).
 */
import { receiptDueDay, receiptReminderDay } from '@shared/domain/businessDays';
import { dayIn, formatUsDay, startOfDayIn } from '@shared/domain/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalClock, type LocalClock } from '../../infra/local/timeTravel';
import { keys } from '../../lambdas/src/data/keys';
import { createLogger } from '../../lambdas/src/platform/log';
import { runReceiptDeadlines } from '../../lambdas/src/services/receipts';
import { payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

const LA = 'America/Los_Angeles';
const HOUR_MS = 3_600_000;

let clock: LocalClock;
let stack: IntegrationStack;
beforeAll(async () => {
  clock = createLocalClock();
  stack = await startIntegrationStack({ stripe: true, stripeClock: () => clock.nowMs() });
});
afterAll(async () => {
  await stack?.stop();
});

/** The next 23:15 in Los Angeles at least ten minutes from the product's now (PST or PDT alike). */
function nextLateEveningInLosAngeles(): Date {
  const from = clock.nowMs() + 10 * 60_000;
  let day = dayIn(new Date(from), LA);
  for (;;) {
    const nextMidnight = startOfDayIn(dayAfter(day), LA).getTime();
    const lateEvening = nextMidnight - 45 * 60_000;
    if (lateEvening >= from) return new Date(lateEvening);
    day = dayAfter(day);
  }
}

function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

describe("the team's time zone", () => {
  it('is set by its manager only to a zone the list offers, and GET /me carries it', async () => {
    const send = sender(stack);
    const { manager, teamId } = await setUpTeam(stack);
    // A team that never chose keeps the zone every deadline used before: New York.
    expect((await send('GET', '/me', manager.accessToken)).body.timeZone).toBe('America/New_York');

    const refused = await send('PUT', '/team/timeZone', manager.accessToken, {
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Choose a time zone from the list');
    expect((await stack.getItem(keys.team(teamId)))?.timeZone).toBeUndefined();

    const employee = await joinTeam(stack, manager, 20);
    const notHers = await send('PUT', '/team/timeZone', employee.accessToken, { timeZone: LA });
    expect(notHers.status).toBe(403);

    const set = await send('PUT', '/team/timeZone', manager.accessToken, { timeZone: LA });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ timeZone: LA });
    expect((await send('GET', '/me', manager.accessToken)).body.timeZone).toBe(LA);
    // Everyone on the team reads the team's zone.
    expect((await send('GET', '/me', employee.accessToken)).body.timeZone).toBe(LA);
    const audit = await send('GET', '/team/audit', manager.accessToken);
    expect(JSON.stringify(audit.body)).toContain('team.timeZone');
  });

  it('dates a purchase at 23:15 in Los Angeles the Los Angeles day in the receipt e-mail, the CSV, its due day and the invoice', async () => {
    const send = sender(stack);
    const { manager } = await setUpTeam(stack);
    expect((await send('PUT', '/team/timeZone', manager.accessToken, { timeZone: LA })).status).toBe(200);

    const lateEvening = nextLateEveningInLosAngeles();
    clock.set(lateEvening);
    // She joins that evening: her first month's charge is invoiced then.
    const employee = await joinTeam(stack, manager, 30);
    const paid = await payWithCard(stack, employee.cardId, 1250);
    expect(paid?.authorization?.approved).toBe(true);

    const purchase = (await stack.queryIndex('gsi2', `USER#${employee.userId}`)).find(
      (i) => i.entity === 'Purchase',
    );
    const boughtAt = purchase?.createdAt as string;
    const day = dayIn(boughtAt, LA);
    // The instant is one where the calendars disagree: UTC and New York are already on the next day.
    expect(dayIn(boughtAt, 'UTC')).toBe(dayAfter(day));
    expect(dayIn(boughtAt, 'America/New_York')).toBe(dayAfter(day));
    const printed = formatUsDay(day);
    const due = receiptDueDay(boughtAt, LA);

    // The purchase list: the due day is counted from the Los Angeles day.
    const list = await send('GET', '/purchases', employee.accessToken);
    const row = list.body.purchases.find(
      (p: { purchaseId: string }) => p.purchaseId === purchase?.purchaseId,
    );
    expect(row.receipt.dueDate).toBe(due);

    // The CSV: the purchase's date and due day (the range covers the day either side of midnight).
    const csv = await fetch(
      `${stack.apiUrl}/team/purchases.csv?from=${day.slice(0, 7)}&to=${dayAfter(day).slice(0, 7)}`,
      { headers: { authorization: `Bearer ${manager.accessToken}` } },
    );
    expect(csv.status).toBe(200);
    const line = (await csv.text()).split('\r\n').find((l) => l.includes(purchase?.purchaseId as string));
    expect(line?.startsWith(`${printed},`), line).toBe(true);
    expect(line).toContain(`,${formatUsDay(due)},`);

    // The receipt reminder, on its day at noon in Los Angeles.
    const reminderAt = new Date(startOfDayIn(receiptReminderDay(due), LA).getTime() + 12 * HOUR_MS);
    await runReceiptDeadlines(reminderAt, createLogger({ test: 'teamCalendar' }));
    const reminder = (await stack.mailbox.to(employee.email)).find((m) => m.subject === 'Receipt due soon');
    expect(reminder?.body.text).toContain(`at Powell’s Books on ${printed}, receipt due ${formatUsDay(due)}`);

    // The invoice of her joining charge, made that evening: listed, printed and e-mailed with that day.
    const invoices = (await send('GET', '/invoices', manager.accessToken)).body.invoices as {
      number: string;
      issuedAt: string;
      issuedOn: string;
    }[];
    const evening = invoices.find((i) => Date.parse(i.issuedAt) >= lateEvening.getTime());
    expect(evening, JSON.stringify(invoices)).toBeDefined();
    expect(evening?.issuedOn).toBe(day);
    const pdf = await send('GET', `/invoices/${evening?.number}/pdf`, manager.accessToken);
    expect(pdf.body).toContain(`(Date: ${printed})`);
    const invoiceMail = (await stack.mailbox.to(manager.email)).find((m) =>
      m.subject.startsWith(`Invoice ${evening?.number}`),
    );
    expect(invoiceMail?.body.text).toContain(`Date: ${printed}`);
  });
});
