/**
 * A year in the life (issue 11): one team lives 14 months, day by day, on
 * DynamoDB Local, the SES stand-in, s3rver and the Stripe emulator. Every
 * scheduled job runs for each day passed, in order, as local time travel runs
 * them (infra/local/timeTravel.ts); people act through the API, and buy
 * through the emulator's card network (signed webhooks: authorization, then
 * capture).
 *
 * The team: Ana buys every month and sends her receipts at once (her budget
 * goes up mid-year; a merchant refunds part of one book); Bob buys and is late
 * with receipts (reminded, frozen and declined, frozen by the manager too so
 * his receipt lifts only its own reason, and frozen again at the end); Quinn never buys (warned, told three times, then inactive and
 * paused, her money waiting on the ledger until the manager shares it among
 * three); Leo buys once and leaves (his money is pooled and redeemed to the
 * manager's card, less the fee); Sam is paused in month 2 (not funded) and
 * reactivated by the manager after his 12-month notice (the clock restarts);
 * Rita buys only after the 11-month warning (the clock restarts); Jade joins
 * in month 6 (funded from her first day) and is captured above her hold (a
 * debt her next credit repays).
 *
 * After every day the ledger invariants of docs/ledger.md hold
 * (test/support/ledgerInvariants.ts). At the end: every e-mail each person got
 * is the one the policies say, on the day they say (expected days computed from
 * the policy functions and the job schedule, from the start day), and nothing
 * else; the notice records agree; every card is in the expected state in our
 * records and at the issuer; every balance is what the model of the year says;
 * and charged = funded + redeemed + fees, on the ledger and against the
 * emulator's charges, refunds and issuing transactions (docs/ledger.md,
 * "Charged, funded, redeemed, fees").
 *
 * The start is now (whatever the calendar says: month ends, weekends and
 * holidays fall where they fall); SCENARIO_START=<ISO time> replays a start
 * in the future.
 */
import { readFileSync } from 'node:fs';
import { type JobId, jobs } from '@shared/api/schedules';
import { CHART } from '@shared/domain/accountingExport';
import { dayIn } from '@shared/domain/calendar';
import { addMonths, DORMANCY_NOTICES, type DormancyNotice } from '@shared/domain/dormancy';
import { teamMonthOf } from '@shared/domain/insightDeltas';
import { reallocationShares, redemptionFee } from '@shared/domain/ledger';
import { firstBusinessDay } from '@shared/domain/nudges';
import type { InvoiceListItem } from '@shared/schemas/invoices';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobHandlers } from '../../infra/local/scheduler';
import { createLocalClock, type LocalClock, travel } from '../../infra/local/timeTravel';
import { getTeamZone } from '../../lambdas/src/data/accounts';
import { listTeamInvoices } from '../../lambdas/src/data/invoices';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import type { Actor } from '../../lambdas/src/platform/auth';
import { invoiceEmailSubject } from '../../lambdas/src/services/invoices';
import { exportTeamPurchases } from '../../lambdas/src/services/purchases';
import { inviteAndRegisterEmployee, type SignedIn, signIn } from '../support/accountFlows';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import { centsOf, parseCsv } from '../support/csvReader';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import {
  dormancyTimeline,
  receiptDays,
  receiptTimeline,
  renewalRuns,
  runsBetween,
} from '../support/policyCalendar';
import { emulatorClient, sender, setUpTeam } from '../support/teams';

const DAY_MS = 24 * 60 * 60 * 1000;
/** People act at 16:00 UTC (11 am or noon in New York), after the day's jobs. */
const ACTION_HOUR = 16;
const MONTHS = 14;
const PRODUCT = 'Learning Budget';
const RECEIPT = readFileSync(new URL('../fixtures/receipts/receipt.png', import.meta.url));

let clock: LocalClock;
let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let stripe: Stripe;

beforeAll(async () => {
  clock = createLocalClock();
  if (process.env.SCENARIO_START) clock.set(new Date(process.env.SCENARIO_START));
  // The year starts today (the emulator's clock only moves forward): say which day, so a
  // failure that only some start days meet can be replayed with SCENARIO_START.
  console.info(`year in the life: starts ${clock.now().toISOString()} (replay with SCENARIO_START=<that>)`);
  stack = await startIntegrationStack({
    stripe: true,
    authorizationTimeoutMs: 15_000,
    stripeClock: () => clock.nowMs(),
  });
  send = sender(stack);
  stripe = emulatorClient(stack);
});
afterAll(async () => {
  await stack?.stop();
});

// --- The calendar -------------------------------------------------------------------

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** A monthly nudge or digest (issue 26). */
const MONTHLY_MAIL = /^You have .* to spend on learning$|^Your team's learning budget in /;

// --- The people -------------------------------------------------------------------

interface Person {
  key: 'ana' | 'bob' | 'quinn' | 'leo' | 'sam' | 'rita' | 'jade';
  firstName: string;
  lastName: string;
  /** Whole dollars. */
  budget: number;
}

interface Member extends Person, SignedIn {
  cardId: string;
  joinedAt: Date;
  /** Every moment the dormancy clock (re)started, as the product recorded it. */
  clockStarts: Date[];
  /** Budget (cents) from a moment on: the next renewal after it uses it. */
  budgets: { from: Date; cents: number }[];
  paused: { from: Date; to?: Date }[];
  deletedAt?: Date;
}

const nameOf = (p: Person) => `${p.firstName} ${p.lastName}`;

interface ExpectedMail {
  day: string;
  to: string;
  subject: string;
}

interface PurchaseLog {
  who: Member;
  purchaseId: string;
  /** What the merchant captured. */
  cents: number;
  /** What the merchant gave back since. */
  refundedCents: number;
  at: Date;
  /** When the receipt went in, if it did. */
  receiptAt?: Date;
  /** Another freeze reason kept the card frozen when the receipt went in. */
  stillFrozenBy?: 'manager';
}

/** The month after `yyyy-mm`. */
function nextMonthOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

describe('a year in the life', () => {
  it('a team lives 14 months day by day: the books hold every day, every notice goes once on its day, every card and balance ends as the policies say', async () => {
    const handlers = await loadJobHandlers();
    const settingUp = clock.now();
    const { manager, teamId, customerId, cycleDay } = await setUpTeam(stack);
    const start = clock.now();
    // The cycle is anchored on the setup day (UTC).
    expect([settingUp.getUTCDate(), start.getUTCDate()]).toContain(cycleDay);
    /** The day `months` calendar months (clamped) and `days` days after the start, at the action hour. */
    const at = (months: number, days = 0) => {
      const t = addMonths(start.toISOString(), months);
      t.setUTCDate(t.getUTCDate() + days);
      t.setUTCHours(ACTION_HOUR, 0, 0, 0);
      return t;
    };
    const end = at(MONTHS);

    const members = new Map<Person['key'], Member>();
    const everyone = () => [...members.values()];
    const purchases: PurchaseLog[] = [];
    const seenMail = new Set<string>();
    const actual: ExpectedMail[] = [];
    /** The monthly nudges and digests (issue 26): checked by their own rules below. */
    const monthly: ExpectedMail[] = [];
    const addresses = new Set<string>([manager.email]);

    const personRecord = async (m: Member) =>
      (await stack.getItem(keys.user(m.userId))) as Record<string, any>;
    const quietSince = async (m: Member) => new Date((await personRecord(m)).quietSince as string);

    async function join(p: Person): Promise<Member> {
      const signedIn = await inviteAndRegisterEmployee(stack.apiUrl, manager, p.budget, {
        mailbox: stack.mailbox,
        firstName: p.firstName,
        lastName: p.lastName,
      });
      const record = (await stack.getItem(keys.user(signedIn.userId))) as Record<string, any>;
      expect(record.cardId, `${p.key} has a card`).toMatch(/^ic_/);
      const member: Member = {
        ...p,
        ...signedIn,
        cardId: record.cardId,
        joinedAt: clock.now(),
        clockStarts: [new Date(record.quietSince)],
        budgets: [{ from: new Date(0), cents: p.budget * 100 }],
        paused: [],
      };
      members.set(p.key, member);
      addresses.add(member.email);
      return member;
    }

    /** A merchant asks the network for `cents` on the person's card; the product answers by webhook. */
    const authorize = (m: Member, cents: number, merchant: string) =>
      payWithCard(stack, m.cardId, cents, { ...BOOKSHOP, name: merchant });

    /**
     * Pays at a merchant with the person's card through the emulator's network;
     * the capture settles, by default for what was held, or for `captured` (a
     * merchant adding tax after the approval: the rest becomes the person's debt).
     */
    async function buy(m: Member, cents: number, merchant: string, captured?: number) {
      const admin = stack.stripe?.admin;
      if (captured !== undefined) admin?.setAutoCapture(false);
      const outcome = await authorize(m, cents, merchant).finally(() => admin?.setAutoCapture(50));
      expect(outcome?.approved, `${m.key} buys ${cents} at ${merchant}`).toBe(true);
      if (captured !== undefined) {
        admin?.capture(outcome?.authorization?.id as string, captured);
        await admin?.idle();
      }
      const list = await send('GET', '/purchases?limit=1', m.accessToken);
      const row = list.body.purchases[0];
      expect(row.amountCents).toBe(captured ?? cents);
      const purchase: PurchaseLog = {
        who: m,
        purchaseId: row.purchaseId,
        cents: captured ?? cents,
        refundedCents: 0,
        at: new Date(row.date),
      };
      purchases.push(purchase);
      // The network's date of the capture restarts the dormancy clock.
      m.clockStarts.push(purchase.at);
      expect(await quietSince(m)).toEqual(purchase.at);
      return purchase;
    }

    /** The browser's part of a receipt: presigned POST to the bucket, then confirm. */
    async function sendReceipt(p: PurchaseLog) {
      const token = p.who.accessToken;
      const presign = await send('POST', `/purchases/${p.purchaseId}/receipt/upload`, token, {
        contentType: 'image/png',
        size: RECEIPT.length,
        fileName: 'receipt.png',
      });
      expect(presign.status, JSON.stringify(presign.body)).toBe(200);
      const form = new FormData();
      for (const [name, value] of Object.entries(presign.body.fields as Record<string, string>))
        form.append(name, value);
      form.append('file', new Blob([new Uint8Array(RECEIPT)], { type: 'image/png' }), 'receipt.png');
      const posted = await fetch(presign.body.url, { method: 'POST', body: form });
      expect(posted.status, await posted.text()).toBeLessThan(300);
      const confirm = await send('POST', `/purchases/${p.purchaseId}/receipt`, token, {
        uploadId: presign.body.uploadId,
        title: 'A book for work',
        fileName: 'receipt.png',
      });
      expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
      p.receiptAt = clock.now();
    }

    // --- What happens, by day -----------------------------------------------------------

    const plan = new Map<string, (() => Promise<void>)[]>();
    /** Plans an action for a day (at the action hour, after that day's jobs). */
    const on = (when: Date | string, action: () => Promise<void>) => {
      const day = typeof when === 'string' ? when : dayOf(when);
      const actions = plan.get(day) ?? [];
      actions.push(action);
      plan.set(day, actions);
    };
    const dayAfter = (when: Date | string, n = 1) =>
      dayOf(new Date(Date.parse(`${typeof when === 'string' ? when : dayOf(when)}T12:00:00Z`) + n * DAY_MS));
    /** The day the receipt job freezes the card for this purchase if nothing comes. */
    const freezeDayOf = (p: PurchaseLog) =>
      dayOf(
        receiptTimeline(p.at, undefined, new Date(p.at.getTime() + 60 * DAY_MS)).find(
          (s) => s.step === 'frozen',
        )?.at as Date,
      );

    // The six who join with the team.
    const ana = await join({ key: 'ana', firstName: 'Ana', lastName: 'Regular', budget: 25 });
    const bob = await join({ key: 'bob', firstName: 'Bob', lastName: 'Forgetful', budget: 30 });
    const quinn = await join({ key: 'quinn', firstName: 'Quinn', lastName: 'Quiet', budget: 20 });
    const leo = await join({ key: 'leo', firstName: 'Leo', lastName: 'Leaving', budget: 40 });
    const sam = await join({ key: 'sam', firstName: 'Sam', lastName: 'Paused', budget: 25 });
    const rita = await join({ key: 'rita', firstName: 'Rita', lastName: 'Returning', budget: 35 });

    // Ana: a book every month, the receipt the next day. Her budget goes to $30 from the next cycle in month 5.
    for (let month = 0; month < MONTHS; month++) {
      on(at(month, 10), async () => {
        const p = await buy(ana, 1200, 'Powell’s Books');
        on(dayAfter(p.at), () => sendReceipt(p));
      });
    }
    // The merchant of Ana's month-7 book refunds part of it: money back on her card, not a purchase
    // (her dormancy clock does not move).
    on(at(7, 20), async () => {
      const p = purchases.filter((x) => x.who === ana)[7] as PurchaseLog;
      const clockBefore = await quietSince(ana);
      stack.stripe?.admin.refund(p.purchaseId, 500);
      await stack.stripe?.admin.idle();
      p.refundedCents = 500;
      const record = await stack.getItem(keys.purchase(p.purchaseId));
      expect(record?.refundedCents).toBe(500);
      expect(await quietSince(ana)).toEqual(clockBefore);
    });
    on(at(5, 1), async () => {
      const res = await send('PUT', `/users/${ana.userId}`, manager.accessToken, {
        firstName: ana.firstName,
        lastName: ana.lastName,
        budget: 30,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ana.budgets.push({ from: clock.now(), cents: 3000 });
    });

    const cardStatus = async (m: Member, status: 'active' | 'inactive') => {
      const res = await send('POST', '/employees/cardStatus', manager.accessToken, {
        userIds: [m.userId],
        status,
      });
      expect(res.body.results, JSON.stringify(res.body)).toEqual([{ userId: m.userId, status }]);
    };

    // Bob: late with receipts in every way the policy knows.
    on(at(1, 12), async () => {
      const p = await buy(bob, 1500, 'Udemy');
      on(receiptDays(p.at).reminderDay, () => sendReceipt(p)); // after the early reminder
    });
    on(at(3, 12), async () => {
      const p = await buy(bob, 1800, 'Coursera');
      // Frozen, his card is declined (by the issuer at once: the card is inactive there too), and the
      // manager adds a freeze of her own. His receipt lifts the receipt freeze only: the card stays
      // frozen (no "works again" e-mail) until the manager activates it, which restarts his clock.
      const frozenOn = freezeDayOf(p);
      on(dayAfter(frozenOn, 1), async () => {
        const outcome = await authorize(bob, 500, 'Powell’s Books');
        expect(outcome).toMatchObject({ approved: false, reason: 'card_inactive' });
        await cardStatus(bob, 'inactive');
      });
      on(dayAfter(frozenOn, 2), async () => {
        await sendReceipt(p);
        p.stillFrozenBy = 'manager';
        expect(await stack.getItem(keys.card(bob.cardId))).toMatchObject({
          status: 'inactive',
          freeze: { manager: true },
        });
      });
      on(dayAfter(frozenOn, 5), async () => {
        const before = clock.now();
        await cardStatus(bob, 'active');
        const restarted = await quietSince(bob);
        expect(restarted >= before && restarted <= clock.now()).toBe(true);
        bob.clockStarts.push(restarted);
      });
    });
    on(at(5, 12), async () => {
      const p = await buy(bob, 900, 'Audible');
      on(dayAfter(p.at), () => sendReceipt(p)); // at once
    });
    on(at(9, 12), async () => {
      const p = await buy(bob, 1100, 'Udemy');
      on(receiptDays(p.at).dueDay, () => sendReceipt(p)); // on the due day, after its reminder
    });
    on(at(12, 12), async () => {
      await buy(bob, 1300, 'Powell’s Books'); // never sent: frozen at the end
    });

    // Leo buys once, then leaves; the manager redeems his money.
    on(at(1, 5), async () => {
      const p = await buy(leo, 1850, 'Lorman');
      on(dayAfter(p.at), () => sendReceipt(p));
    });
    let redemption: { amountCents: number; feeCents: number } | undefined;
    on(at(4, 3), async () => {
      const removed = await send('POST', '/employees/delete', manager.accessToken, { userIds: [leo.userId] });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      leo.deletedAt = clock.now();
      // Redeeming asks for a factor proven in the last minutes: the manager signs in again.
      const session = await signIn(stack.apiUrl, manager.email);
      expect(session.status).toBe(200);
      const res = await send(
        'POST',
        '/funds/redeem',
        session.body.accessToken,
        { deletedUserIds: [leo.userId] },
        `redeem-${leo.userId}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      redemption = res.body;
    });

    // Sam: paused in month 2, reactivated by the manager after his 12-month notice.
    const pause = async (m: Member, action: 'pause' | 'unpause') => {
      const res = await send('POST', '/employees/pause', manager.accessToken, {
        userIds: [m.userId],
        action,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    on(at(2, 2), async () => {
      await pause(sam, 'pause');
      sam.paused.push({ from: clock.now() });
    });
    on(at(12, 5), async () => {
      const before = clock.now();
      await pause(sam, 'unpause');
      (sam.paused.at(-1) as { to?: Date }).to = before;
      const restarted = await quietSince(sam);
      expect(restarted >= before && restarted <= clock.now()).toBe(true);
      sam.clockStarts.push(restarted);
    });

    // Rita buys only after the 11-month warning.
    on(at(11, 10), async () => {
      const p = await buy(rita, 2100, 'Audible');
      on(dayAfter(p.at), () => sendReceipt(p));
    });

    // Quinn's money waited on her card after she became dormant; the manager shares it among three.
    const reallocated = new Map<Member, { at: Date; cents: number }>();
    on(at(13, 10), async () => {
      const receivers = [ana, rita, jade as Member];
      const waiting = await balanceOf(`card:${quinn.userId}`);
      const res = await send(
        'POST',
        '/funds/reallocate',
        manager.accessToken,
        { deletedUserIds: [quinn.userId], receiverIds: receivers.map((m) => m.userId) },
        `reallocate-${quinn.userId}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.amountCents).toBe(waiting);
      reallocated.set(quinn, { at: clock.now(), cents: -waiting });
      for (const share of reallocationShares(
        waiting,
        receivers.map((m) => m.userId),
      ))
        reallocated.set(receivers.find((m) => m.userId === share.userId) as Member, {
          at: clock.now(),
          cents: share.amountCents,
        });
    });

    // Jade joins in month 6, and buys in month 8.
    let jade: Member | undefined;
    on(at(6, 10), async () => {
      jade = await join({ key: 'jade', firstName: 'Jade', lastName: 'Joining', budget: 45 });
    });
    on(at(8, 4), async () => {
      // Held $30.00, captured $32.50: $2.50 owed until her next credit repays it.
      const p = await buy(jade as Member, 3000, 'Udemy', 3250);
      expect(await balanceOf(`debt:${(jade as Member).userId}`)).toBe(-250);
      on(dayAfter(p.at), () => sendReceipt(p));
    });

    // --- Day by day ----------------------------------------------------------------------

    const ledger = new LedgerInvariants(stack, teamId);
    const jobRuns: { jobId: JobId; time: string; result: any }[] = [];
    let mailSince = Math.floor(Date.now() / 1000) - 1;
    // What the setup and the first joins sent is not the year's: the record starts now.
    for (const mail of await stack.mailbox.since(mailSince)) seenMail.add(mail.messageId);
    await ledger.check(
      'setup',
      everyone().map((m) => m.userId),
    );

    const travelFrom = clock.now();
    let day = new Date(start);
    day.setUTCHours(ACTION_HOUR, 0, 0, 0);
    if (day <= clock.now()) day = new Date(day.getTime() + DAY_MS);
    for (; day <= end; day = new Date(day.getTime() + DAY_MS)) {
      const label = dayOf(day);
      const readFrom = Math.floor(Date.now() / 1000) - 1;
      const travelled = await travel(clock, handlers, day);
      jobRuns.push(...travelled.runs);
      // An action may plan more, for today or later (never for a day already passed).
      const actions = plan.get(label) ?? [];
      for (let next = actions.shift(); next; next = actions.shift()) await next();
      plan.delete(label);
      for (const planned of plan.keys()) expect(planned > label, `planned for ${planned}`).toBe(true);

      for (const mail of await stack.mailbox.since(Math.min(readFrom, mailSince))) {
        if (seenMail.has(mail.messageId)) continue;
        seenMail.add(mail.messageId);
        for (const to of mail.destination.to)
          if (addresses.has(to))
            (MONTHLY_MAIL.test(mail.subject) ? monthly : actual).push({
              day: label,
              to,
              subject: mail.subject,
            });
      }
      mailSince = readFrom;
      await ledger.check(
        label,
        everyone().map((m) => m.userId),
      );
    }
    expect(plan.size, `actions never run: ${[...plan.keys()]}`).toBe(0);
    expect(ledger.count).toBeGreaterThan(400);
    // Once more at the end, reading every account's statement.
    const final = await ledger.check(
      'end',
      everyone().map((m) => m.userId),
      { everyStatement: true },
    );
    const people = everyone();
    const named = (key: Person['key']) => members.get(key) as Member;

    // --- Every job ran every day, and each run was clean ----------------------------------

    for (const job of Object.keys(jobs) as JobId[]) {
      const runs = jobRuns.filter((r) => r.jobId === job);
      expect(runs.map((r) => r.time)).toEqual(runsBetween(job, travelFrom, end).map((r) => r.toISOString()));
      for (const run of runs) {
        expect(run.result.status, `${job} ${run.time}`).toBe('done');
        const { summary } = run.result;
        for (const failure of ['teamsFailed', 'joinsFailed', 'failed', 'teamsDeclined', 'joinsDeclined'])
          expect(summary[failure] ?? 0, `${job} ${run.time} ${failure}`).toBe(0);
        // Reconciliation finds every flow finished: nothing to post, nothing to report.
        if (job === 'reconciliation') expect(summary).toMatchObject({ posted: 0, differences: 0 });
      }
    }

    // --- Who was funded, by the policy: joining, then every cycle while active ------------

    const renewals = renewalRuns(start, MONTHS, cycleDay);

    // --- Dormancy, by the policy: notices per clock, each on the first run at or after its moment ---

    type Notice = { who: Member; notice: DormancyNotice; at: Date };
    const notices: Notice[] = [];
    const deactivations = new Map<Member, Date>();
    for (const m of people) {
      m.clockStarts.forEach((since, i) => {
        // A clock runs until the next restart, the person's removal, or the end of the year.
        const stops = [m.clockStarts[i + 1], m.deletedAt, end].filter((d): d is Date => d !== undefined);
        const timeline = dormancyTimeline(since, new Date(Math.min(...stops.map((d) => d.getTime()))));
        for (const n of timeline.notices) notices.push({ who: m, ...n });
        if (timeline.deactivatedAt) {
          deactivations.set(m, timeline.deactivatedAt);
          // Paused from then on: not funded.
          m.paused.push({ from: timeline.deactivatedAt });
        }
      });
    }
    // The year as planned: Quinn goes all the way, Sam is reactivated after his 12-month notice,
    // Rita buys after the 11-month warning.
    const noticesOf = (m: Member) => notices.filter((n) => n.who === m).map((n) => n.notice);
    expect(noticesOf(quinn)).toEqual([...DORMANCY_NOTICES]);
    expect(deactivations.has(quinn)).toBe(true);
    expect(noticesOf(sam)).toEqual(['warning11', 'notice12']);
    expect(noticesOf(rita)).toEqual(['warning11']);
    expect([...deactivations.keys()]).toEqual([quinn]);
    for (const key of ['ana', 'bob', 'leo', 'jade'] as const) expect(noticesOf(named(key))).toEqual([]);

    const fundingsOf = (m: Member) => {
      const lines = [{ at: m.joinedAt, cents: m.budget * 100 }];
      for (const r of renewals) {
        const inTeam = m.joinedAt < r && !(m.deletedAt && m.deletedAt < r);
        const paused = m.paused.some((p) => p.from < r && !(p.to && p.to < r));
        const cents = m.budgets.filter((b) => b.from < r).at(-1)?.cents ?? 0;
        if (inTeam && !paused) lines.push({ at: r, cents });
      }
      return lines;
    };
    const spentBy = (m: Member, before = end) =>
      purchases
        .filter((p) => p.who === m && p.at < before)
        .reduce((s, p) => s + p.cents - p.refundedCents, 0);
    const fundedBy = (m: Member, before = end) =>
      fundingsOf(m)
        .filter((f) => f.at < before)
        .reduce((s, f) => s + f.cents, 0);
    /** What a person's card holds at the end: funded, less spent, plus or minus what was reallocated. */
    const holds = (m: Member) => fundedBy(m) - spentBy(m) + (reallocated.get(m)?.cents ?? 0);
    // Sam: nothing while paused; Quinn: nothing after she became dormant; Jade: from her first day.
    expect(fundingsOf(sam).length).toBeLessThan(fundingsOf(ana).length);
    expect(fundingsOf(quinn).length).toBe(MONTHS);
    expect(fundingsOf(named('jade'))[0]?.at).toEqual(named('jade').joinedAt);

    // --- Receipts, by the policy: reminder, due today, freeze; the card back when they are in ---

    const expected: ExpectedMail[] = [];
    const mail = (when: Date | string, to: string, subject: string) =>
      expected.push({ day: typeof when === 'string' ? when : dayOf(when), to, subject });
    const remindersOf = new Map<PurchaseLog, string[]>();
    for (const p of purchases) {
      const steps = receiptTimeline(p.at, p.receiptAt, end);
      for (const { step, at: run } of steps) {
        if (step === 'reminder') mail(run, p.who.email, 'Receipt due soon');
        if (step === 'dueToday')
          mail(run, p.who.email, 'Receipt due today: upload it to keep your card active');
        if (step === 'frozen') {
          mail(run, p.who.email, `Your ${PRODUCT} card is frozen: receipts missing`);
          mail(run, manager.email, `${nameOf(p.who)}'s card is frozen: receipts missing`);
          // Sent later: the card works again at once.
          if (p.receiptAt && !p.stillFrozenBy)
            mail(p.receiptAt, p.who.email, `Your ${PRODUCT} card works again`);
        }
      }
      remindersOf.set(
        p,
        steps.filter((s) => s.step !== 'frozen').map((s) => s.step),
      );
    }
    // Bob was late in every way; Ana, Leo, Rita and Jade never were.
    const bobsReminders = purchases.filter((p) => p.who === bob).map((p) => remindersOf.get(p));
    expect(bobsReminders).toEqual([
      ['reminder'],
      ['reminder', 'dueToday'],
      [],
      ['reminder', 'dueToday'],
      ['reminder', 'dueToday'],
    ]);
    for (const p of purchases.filter((x) => x.who !== bob)) expect(remindersOf.get(p)).toEqual([]);

    for (const n of notices) {
      const name = nameOf(n.who);
      if (n.notice === 'warning11')
        mail(n.at, manager.email, `${name} has not used their learning card in 11 months`);
      else if (n.notice === 'notice13') {
        mail(n.at, n.who.email, `Your ${PRODUCT} card becomes inactive tomorrow`);
        mail(n.at, manager.email, `${name}'s learning card becomes inactive tomorrow`);
      } else {
        const howLong = n.notice === 'notice12' ? '12 months' : 'twelve and a half months';
        mail(n.at, n.who.email, `Your ${PRODUCT} card has not been used in ${howLong}`);
        mail(n.at, manager.email, `${name} has not used their learning card in ${howLong}`);
      }
    }
    // Jade's invitation and the link to verify her address, the day she joins.
    const jadeJoined = named('jade');
    mail(jadeJoined.joinedAt, jadeJoined.email, `Mary Manager invited you to ${PRODUCT}`);
    mail(jadeJoined.joinedAt, jadeJoined.email, `Verify your email address for ${PRODUCT}`);

    // An invoice for every charge and a credit note for the redemption, e-mailed to the manager on
    // the day of its billing run (those of the setup and the first joins came before the year's record).
    const invoicesRes = await send('GET', '/invoices', manager.accessToken);
    expect(invoicesRes.status).toBe(200);
    const invoices = invoicesRes.body.invoices as InvoiceListItem[];
    for (const invoice of invoices)
      if (new Date(invoice.issuedAt) >= travelFrom)
        mail(new Date(invoice.issuedAt), manager.email, invoiceEmailSubject(invoice));

    // --- Monthly e-mails (issue 26): on a month's first business day, once a person; none while
    // paused (dormant included) or after removal. Quinn never buys and is never frozen: one nudge
    // every month until she goes dormant.
    const nudgeTime = (day: string) =>
      new Date(`${day}T${String(jobs.monthlyEmails.cron.hour).padStart(2, '0')}:00:00.000Z`);
    for (const m of monthly) expect(m.day, `${m.to} ${m.subject}`).toBe(firstBusinessDay(m.day.slice(0, 7)));
    const perMonth = monthly.map(
      (m) => `${m.day.slice(0, 7)} ${m.to} ${m.subject.startsWith('Your team') ? 'digest' : 'nudge'}`,
    );
    expect(new Set(perMonth).size).toBe(perMonth.length);
    for (const m of people) {
      for (const nudge of monthly.filter((x) => x.to === m.email)) {
        const at = nudgeTime(nudge.day);
        expect(m.deletedAt && m.deletedAt < at, `${m.key} removed, nudged ${nudge.day}`).toBeFalsy();
        const paused = m.paused.some((p) => p.from < at && !(p.to && p.to < at));
        expect(paused, `${m.key} paused, nudged ${nudge.day}`).toBe(false);
      }
    }
    const quinnDue = runsBetween('monthlyEmails', travelFrom, end)
      .map(dayOf)
      .filter(
        (d) => d === firstBusinessDay(d.slice(0, 7)) && nudgeTime(d) < (deactivations.get(quinn) as Date),
      );
    expect(quinnDue.length).toBeGreaterThanOrEqual(10);
    expect(monthly.filter((m) => m.to === quinn.email).map((m) => m.day)).toEqual(quinnDue);

    // Every e-mail anyone in the team got this year, and no other: each once, on its day.
    const order = (list: ExpectedMail[]) =>
      list.map((m) => `${m.day} ${m.to} ${m.subject}`).sort((a, b) => a.localeCompare(b));
    expect(order(actual)).toEqual(order(expected));

    // --- The records agree: notices on the person, reminders on the purchase ---------------

    for (const m of people) {
      const record = await personRecord(m);
      if (m.deletedAt) {
        expect(record.status).toBe('deleted');
        continue;
      }
      const lastClock = m.clockStarts.at(-1) as Date;
      expect(new Date(record.quietSince), `${m.key}'s clock`).toEqual(lastClock);
      const current = notices.filter((n) => n.who === m && n.at >= lastClock);
      const deactivated = deactivations.get(m);
      expect(record.dormancy ?? {}, `${m.key}'s notices`).toEqual({
        ...Object.fromEntries(current.map((n) => [n.notice, n.at.toISOString()])),
        ...(deactivated ? { deactivatedAt: deactivated.toISOString() } : {}),
      });
      expect(record.status, `${m.key}'s status`).toBe(deactivated ? 'paused' : 'active');
    }
    for (const p of purchases) {
      const record = (await stack.getItem(keys.purchase(p.purchaseId))) as Record<string, any>;
      expect(record.receiptStatus).toBe(p.receiptAt ? 'received' : 'awaiting');
      expect([...(record.receiptReminders ?? [])].sort()).toEqual([...(remindersOf.get(p) ?? [])].sort());
    }

    // --- Every card, in our records and at the issuer ------------------------------------

    const cardState = async (m: Member) => {
      const ours = (await stack.getItem(keys.card(m.cardId))) as Record<string, any>;
      const reasons = Object.keys(ours.freeze ?? {}).filter((r) => ours.freeze[r]);
      return { ours: ours.status, reasons, issuer: (await stripe.issuing.cards.retrieve(m.cardId)).status };
    };
    const expectedCards: Record<Person['key'], { ours: string; reasons: string[]; issuer: string }> = {
      ana: { ours: 'active', reasons: [], issuer: 'active' },
      bob: { ours: 'inactive', reasons: ['missingReceipt'], issuer: 'inactive' },
      quinn: { ours: 'inactive', reasons: ['dormant'], issuer: 'inactive' },
      leo: { ours: 'canceled', reasons: [], issuer: 'canceled' },
      sam: { ours: 'active', reasons: [], issuer: 'active' },
      rita: { ours: 'active', reasons: [], issuer: 'active' },
      jade: { ours: 'active', reasons: [], issuer: 'active' },
    };
    for (const m of people) expect(await cardState(m), `${m.key}'s card`).toEqual(expectedCards[m.key]);

    // --- Every balance is the year's: funded less spent; Leo's redeemed less the fee -----------

    const leoHad = fundedBy(leo, leo.deletedAt) - spentBy(leo, leo.deletedAt);
    const fee = redemptionFee(leoHad);
    expect(redemption).toEqual({ amountCents: leoHad, feeCents: fee });
    for (const m of people) {
      const card = final.balances.get(`card:${m.userId}`) ?? 0;
      expect(card, `${m.key}'s card`).toBe(m.deletedAt ? 0 : holds(m));
      expect(final.balances.get(`hold:${m.userId}`) ?? 0).toBe(0);
    }
    expect(final.balances.get(`pool:${teamId}`) ?? 0).toBe(0);
    // Quinn's money stayed on the ledger, all she was ever funded, until the manager shared it.
    expect(reallocated.get(quinn)?.cents).toBe(-fundedBy(quinn, reallocated.get(quinn)?.at));
    expect(reallocated.get(quinn)?.at.getTime()).toBeGreaterThan(
      deactivations.get(quinn)?.getTime() as number,
    );

    // The manager's Employees screen says the same.
    const roster = await send('GET', '/employees', manager.accessToken);
    expect(roster.status).toBe(200);
    for (const m of people) {
      const row = roster.body.employees.find((e: { userId: string }) => e.userId === m.userId);
      expect(row, `${m.key} on the roster`).toMatchObject({
        status: m.deletedAt ? 'deleted' : deactivations.has(m) ? 'paused' : 'active',
        cardStatus: expectedCards[m.key].ours,
        remainingBudgetCents: m.deletedAt ? 0 : holds(m),
        onHoldCents: 0,
        receiptsOutstanding: m.deletedAt ? 0 : purchases.filter((p) => p.who === m && !p.receiptAt).length,
        dormancy: { stage: deactivations.has(m) ? 'dormant' : 'active' },
      });
    }

    const charged = people.reduce((s, m) => s + fundedBy(m), 0);
    const spent = purchases.reduce((s, p) => s + p.cents - p.refundedCents, 0);
    expect(final).toMatchObject({ charged, redeemed: leoHad - fee, fees: fee, spent, debt: 0 });

    // --- charged = funded + redeemed + fees (docs/ledger.md), on the ledger and at Stripe ------
    // charged: the team's Stripe charges (joining, monthly); funded: what the employees' budgets
    // hold or spent (card + hold + pool + network + debt); redeemed: refunded to the manager's card;
    // fees: the redemption fees kept (revenue). The provider charges no subscription fee.

    const funded = final.internal + final.spent + final.debt;
    expect(final.charged).toBe(funded + final.redeemed + final.fees);

    const charges: Stripe.Charge[] = [];
    for await (const c of stripe.charges.list({ customer: customerId, limit: 100 })) charges.push(c);
    expect(charges.every((c) => c.status === 'succeeded')).toBe(true);
    // One joining charge each, one charge per cycle.
    expect(charges).toHaveLength(people.length + MONTHS);
    const stripeCharged = charges.reduce((s, c) => s + c.amount, 0);
    const stripeRefunded = charges.reduce((s, c) => s + c.amount_refunded, 0);
    const network = (
      await Promise.all(
        people.map(async (m) => {
          let sum = 0;
          for await (const t of stripe.issuing.transactions.list({ card: m.cardId, limit: 100 }))
            sum -= t.amount;
          return sum;
        }),
      )
    ).reduce((s, x) => s + x, 0);
    expect({ stripeCharged, stripeRefunded, network }).toEqual({
      stripeCharged: final.charged,
      stripeRefunded: final.redeemed,
      network: final.spent,
    });
    expect(stripeCharged).toBe(funded + stripeRefunded + final.fees);
    // And charge by charge: the ledger credited exactly what each charge took.
    const journal = await teamJournal(teamId);
    for (const c of charges) {
      const credited = journal
        .filter((e) => e.references?.charge === c.id)
        .reduce(
          (s, e) => s + e.legs.filter((l) => l.amountCents > 0).reduce((t, l) => t + l.amountCents, 0),
          0,
        );
      expect(credited, `credits of ${c.id}`).toBe(c.amount);
    }
    // And refund by refund: what the redemption says it refunded to each charge is what Stripe refunded.
    const refunded = new Map<string, number>();
    for (const e of journal)
      for (const r of e.refunds ?? [])
        refunded.set(r.chargeId, (refunded.get(r.chargeId) ?? 0) + r.amountCents);
    for (const c of charges) expect(refunded.get(c.id) ?? 0, `refunds of ${c.id}`).toBe(c.amount_refunded);

    // And as the manager reads it: the payments history, page by page, one row per charge
    // (a cycle's charge is one row for everyone it funded) and the redemption as money back.
    const rows: { direction: string; kind: string; amountCents: number; id: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?paymentsCursor=${encodeURIComponent(cursor)}` : '';
      const page = await send('GET', `/subscription${query}`, manager.accessToken);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      rows.push(...page.body.payments.rows);
      cursor = page.body.payments.nextCursor;
    } while (cursor);
    const sum = (direction: string) =>
      rows.filter((r) => r.direction === direction).reduce((s, r) => s + r.amountCents, 0);
    expect({ charged: sum('charge'), refunded: sum('refund') }).toEqual({
      charged: stripeCharged,
      refunded: stripeRefunded,
    });
    expect(rows.filter((r) => r.kind === 'monthly')).toHaveLength(MONTHS);
    expect(
      rows
        .filter((r) => r.direction === 'charge')
        .map((r) => r.id)
        .sort(),
    ).toEqual(charges.map((c) => c.id).sort());

    // --- Invoices (issue 25): one per charge, a credit note per refund, numbers 1..n ------------
    // Never repeated or skipped; each invoice's total is its charges to the cent, each credit note
    // its refunds; and month by month, what was invoiced less credited is what the ledger charged
    // less refunded in that month.
    const sequences = invoices.map((i) => Number(i.number.slice(-6))).sort((a, b) => a - b);
    expect(sequences).toEqual(invoices.map((_, i) => i + 1));
    expect(new Set(invoices.map((i) => i.number)).size).toBe(invoices.length);
    const invoiceKinds = invoices.map((i) => i.kind);
    expect(invoiceKinds.filter((k) => k === 'invoice')).toHaveLength(charges.length);
    expect(invoiceKinds.filter((k) => k === 'creditNote')).toHaveLength(1);
    const stored = await listTeamInvoices(teamId);
    const chargeAmount = new Map(charges.map((c) => [c.id, c.amount]));
    const refundedOn = new Map(charges.map((c) => [c.id, c.amount_refunded]));
    for (const invoice of stored) {
      expect(invoice.totalCents, invoice.number).toBe(invoice.lines.reduce((s, l) => s + l.amountCents, 0));
      const of = invoice.kind === 'invoice' ? chargeAmount : refundedOn;
      expect(invoice.totalCents, invoice.number).toBe(
        invoice.chargeIds.reduce((s, id) => s + (of.get(id) ?? Number.NaN), 0),
      );
    }
    expect(
      stored
        .filter((i) => i.kind === 'invoice')
        .flatMap((i) => i.chargeIds)
        .sort(),
    ).toEqual(charges.map((c) => c.id).sort());
    const invoicedTotal = (kind: string) =>
      invoices.filter((i) => i.kind === kind).reduce((s, i) => s + i.totalCents, 0);
    expect({ invoiced: invoicedTotal('invoice'), credited: invoicedTotal('creditNote') }).toEqual({
      invoiced: final.charged,
      credited: final.redeemed,
    });
    const byMonth = new Map<string, number>();
    const addTo = (month: string, cents: number) => byMonth.set(month, (byMonth.get(month) ?? 0) + cents);
    for (const e of journal)
      for (const l of e.legs)
        if (l.account === `external:${teamId}`) addTo(e.postedAt.slice(0, 7), -l.amountCents);
    for (const i of invoices)
      addTo(i.issuedAt.slice(0, 7), i.kind === 'invoice' ? -i.totalCents : i.totalCents);
    for (const [month, difference] of byMonth) expect(difference, `invoiced vs ledger in ${month}`).toBe(0);

    await accountingExportsMatchCharges(manager, teamId);

    // --- Insights (issue 26): the aggregates agree with the ledger and the purchases CSV -----------
    // For each month of the year, a 3-month period and the whole year: spent is the CSV's purchases
    // (listed at what was captured, by the team's month of the purchase) less the merchant refunds
    // posted in the period (the CSV lists no refunds: they are the ledger's refund entries); funded
    // is the ledger's credits to cards by funding and deposit entries posted in the period.
    const zone = await getTeamZone(teamId);
    const asManager = { userId: manager.userId, teamId, role: 'manager', email: manager.email } as Actor;
    const scenarioMonths: string[] = [];
    for (let m = teamMonthOf(start, zone); m <= teamMonthOf(end, zone); m = nextMonthOf(m))
      scenarioMonths.push(m);
    expect(scenarioMonths.length).toBeGreaterThanOrEqual(MONTHS);
    const ledgerSum = (from: string, to: string, kinds: string[], prefix: string) =>
      journal
        .filter((e) => kinds.includes(e.kind))
        .filter((e) => teamMonthOf(e.postedAt, zone) >= from && teamMonthOf(e.postedAt, zone) <= to)
        .flatMap((e) => e.legs)
        .filter((l) => l.account.startsWith(prefix) && l.amountCents > 0)
        .reduce((t, l) => t + l.amountCents, 0);
    const insightsAgree = async (from: string, to: string) => {
      const answer = await send('GET', `/insights?from=${from}&to=${to}`, manager.accessToken);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const csv = await exportTeamPurchases(asManager, { from, to }, clock.now());
      const amounts = parseCsv(csv.body)
        .slice(1)
        .map((row) => centsOf(row[6] ?? ''));
      const csvCents = amounts.reduce((t, c) => t + c, 0);
      const refunds = ledgerSum(from, to, ['refund'], 'card:');
      expect(answer.body.totals.spentCents, `spent ${from}..${to}`).toBe(csvCents - refunds);
      expect(answer.body.totals.fundedCents, `funded ${from}..${to}`).toBe(
        ledgerSum(from, to, ['funding', 'deposit'], 'card:'),
      );
      return answer.body.totals as { spentCents: number; fundedCents: number; refundedCents: number };
    };
    for (const m of scenarioMonths) await insightsAgree(m, m);
    await insightsAgree(scenarioMonths[6] as string, scenarioMonths[8] as string);
    const wholeYear = await insightsAgree(scenarioMonths[0] as string, scenarioMonths.at(-1) as string);
    expect(wholeYear).toMatchObject({ spentCents: spent, refundedCents: 500 });
  }, 900_000);
});

/**
 * The accounting export (issue 26, point 3): for each month of the year in the team's calendar,
 * the charge lines of both files (the card on file credited in the charge and deposit journals)
 * sum to what the ledger charged that month, to the cent.
 */
async function accountingExportsMatchCharges(manager: SignedIn, teamId: string) {
  const zone = await getTeamZone(teamId);
  const chargedByMonth = new Map<string, number>();
  for (const e of await teamJournal(teamId))
    if (e.kind === 'funding' || e.kind === 'deposit')
      for (const l of e.legs)
        if (l.account === `external:${teamId}`) {
          const month = dayIn(e.postedAt, zone).slice(0, 7);
          chargedByMonth.set(month, (chargedByMonth.get(month) ?? 0) - l.amountCents);
        }
  expect(chargedByMonth.size).toBeGreaterThanOrEqual(MONTHS);
  const isCharge = (journal: string) => /-(CHG|DEP)\)?$/.test(journal);
  for (const [month, charged] of chargedByMonth) {
    const get = (format: string) =>
      send('GET', `/exports/accounting?month=${month}&format=${format}`, manager.accessToken);
    const [qbo, xero] = [await get('quickbooks'), await get('xero')];
    expect([qbo.status, xero.status], month).toEqual([200, 200]);
    const [, ...qboRows] = parseCsv(qbo.body as string);
    const qboCharged = qboRows
      .filter(([number, , account]) => isCharge(number as string) && account === CHART.bank.name)
      .reduce((s, row) => s + centsOf(row[4] as string) - centsOf(row[3] as string), 0);
    const [, ...xeroRows] = parseCsv(xero.body as string);
    const xeroCharged = xeroRows
      .filter(([narration, , , code]) => isCharge(narration as string) && code === CHART.bank.xeroCode)
      .reduce((s, row) => s - centsOf(row[5] as string), 0);
    expect({ month, qboCharged, xeroCharged }).toEqual({ month, qboCharged: charged, xeroCharged: charged });
  }
}
