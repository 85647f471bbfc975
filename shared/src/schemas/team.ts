/** Manager operations on employees and cards (spec §2 Employees screen, §4 states, §7 calls). */
import { z } from 'zod';
import { AUDIT_KINDS } from '../domain/auditLog';
import { isTimeZone } from '../domain/calendar';
import { dormancyView } from './me';
import { budgetDollars } from './profile';
import { scheduledStartSchema } from './roster';

const userIds = z
  .array(z.string().min(1).max(64), { error: 'Please select at least one employee' })
  .min(1, { error: 'Please select at least one employee' })
  .max(500);

export const pauseInput = z.object({ userIds, action: z.enum(['pause', 'unpause']) });
export const cardStatusInput = z.object({ userIds, status: z.enum(['active', 'inactive']) });
export const deleteEmployeesInput = z.object({ userIds });

export const reallocateInput = z.object({
  /** Deleted employees whose remaining money is reallocated. */
  deletedUserIds: userIds,
  /** Receivers; empty with `allEmployees` means every active employee. */
  receiverIds: z.array(z.string().min(1).max(64)).max(500).default([]),
  allEmployees: z.boolean().default(false),
});

export const redeemInput = z.object({ deletedUserIds: userIds });

/** What a reallocation would give each receiver, computed as the reallocation itself computes it. */
export const reallocationPreviewOutput = z.object({
  amountCents: z.number().int(),
  shares: z.array(z.object({ userId: z.string(), amountCents: z.number().int() })),
  /** As the deposit preview's: sent, this reallocation needs a fresh factor (step-up threshold passed). */
  needsFreshFactor: z.boolean(),
});

/** What a redemption would return: per removed person and in total, the amount, the fee and the net. */
export const redemptionPreviewOutput = z.object({
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  people: z.array(
    z.object({
      userId: z.string(),
      amountCents: z.number().int(),
      feeCents: z.number().int(),
      netCents: z.number().int(),
    }),
  ),
});

export const bulkResultOutput = z.object({
  results: z.array(z.object({ userId: z.string(), status: z.string(), message: z.string().optional() })),
});

export const moneyMovedOutput = z.object({
  amountCents: z.number().int(),
  feeCents: z.number().int().optional(),
  shares: z.array(z.object({ userId: z.string(), amountCents: z.number().int() })).optional(),
});

export const employeeRow = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(['invited', 'active', 'paused', 'deleted']),
  cardStatus: z.enum(['active', 'inactive', 'canceled', 'pending']),
  /** The issuer's card id (the freeze address names it); null until a card is issued. */
  cardId: z.string().nullable(),
  budgetCents: z.number().int(),
  nextBudgetCents: z.number().int(),
  /** What the card can spend; for a removed employee, what of theirs waits in the team pool. */
  remainingBudgetCents: z.number().int(),
  onHoldCents: z.number().int(),
  /** Purchases still awaiting a receipt (due or not); 0 for invitations. */
  receiptsOutstanding: z.number().int(),
  /** Why an inactive card is frozen (all reasons: a receipt freeze reads differently); empty otherwise. */
  freezeReasons: z.array(z.enum(['manager', 'missingReceipt', 'dormant'])),
  /** Of those, past their due day: what freezes the card (docs/decisions.md "Receipt deadline"). */
  receiptsOverdue: z.number().int(),
  dormancy: dormancyView,
  /** The last day a manager set (`yyyy-mm-dd`, team's calendar): removed by the daily job on it (issue 28). */
  lastDay: z.string().nullable().optional(),
});
export const employeesOutput = z.object({
  employees: z.array(employeeRow),
  /** Roster rows with a later start day, invited on it by the daily job; soonest first. */
  scheduled: z.array(scheduledStartSchema).optional(),
});

export const balanceOutput = z.object({
  availableCents: z.number().int(),
  onHoldCents: z.number().int(),
  owedCents: z.number().int(),
  cardStatus: z.enum(['active', 'inactive', 'canceled', 'pending']),
  last4: z.string().nullable(),
  /** Why an inactive card is frozen, so the card dialog says what lifts it (spendPolicy.freezeReason). */
  freezeReason: z.enum(['manager', 'missingReceipt', 'dormant']).nullable(),
  /**
   * While the card is frozen for missing receipts (whatever else froze it too):
   * the overdue purchases whose receipts lift that freeze, oldest first, so the
   * dashboard's banner names them. Null when no receipt freeze is on.
   */
  receiptFreeze: z
    .object({
      overdue: z.array(
        z.object({
          purchaseId: z.string(),
          title: z.string().nullable(),
          merchant: z.string(),
          amountCents: z.number().int(),
          /** When it was bought (ISO time). */
          date: z.string(),
          /** Last day (`yyyy-mm-dd`) the receipt was on time. */
          dueDate: z.string(),
        }),
      ),
    })
    .nullable(),
  /**
   * What the card dialog shows beside the issuer's frame: nothing secret (the
   * number and CVC stay in the frame). Null until the card is issued.
   */
  card: z
    .object({
      cardholderName: z.string(),
      expMonth: z.number().int(),
      expYear: z.number().int(),
      billingAddress: z
        .object({
          address1: z.string(),
          address2: z.string().optional(),
          city: z.string(),
          state: z.string(),
          zip: z.string(),
        })
        .nullable(),
    })
    .nullable(),
  /** The most recent declined purchase, with the reason in plain words. */
  lastDecline: z
    .object({ amountCents: z.number().int(), merchant: z.string(), reason: z.string(), at: z.string() })
    .nullable(),
});

/** The employee's statement, newest first: finished rows (shared/src/domain/statement.ts), the page only shows them. */
export const statementOutput = z.object({
  lines: z.array(
    z.object({
      entryId: z.string(),
      type: z.enum([
        'credit',
        'hold',
        'purchase',
        'holdReleased',
        'holdExpired',
        'refund',
        'reallocationIn',
        'reallocationOut',
        'debtCollected',
        'declined',
        'other',
      ]),
      /** The type in words ("Hold released"). */
      label: z.string(),
      description: z.string(),
      /** A second line: what became of a hold, where a purchase was paid from. */
      detail: z.string().optional(),
      postedAt: z.string(),
      /** The movement: credited (+), held, spent or taken (-). */
      amountCents: z.number().int(),
      /** What the card can still spend after this row (never negative). */
      availableCents: z.number().int(),
      /** On hold for unsettled purchases after this row (never negative). */
      onHoldCents: z.number().int(),
      /** Owed for purchases that settled above their hold, after this row (never negative). */
      owedCents: z.number().int(),
      /** A declined purchase's price (type `declined`): shown, never taken; its `amountCents` is 0. */
      declinedCents: z.number().int().optional(),
    }),
  ),
});

export const cardKeyInput = z.object({ nonce: z.string().max(200).optional() });
export const cardKeyOutput = z.object({
  cardId: z.string(),
  /**
   * The key Stripe.js (or the emulator's frame) shows the card with. In AWS a call
   * without `nonce` only names the card: the page then makes a nonce for it with
   * Stripe.js and asks again (Stripe Issuing Elements' flow; docs/decisions.md).
   */
  ephemeralKeySecret: z.string().optional(),
  /** Unix seconds; with `ephemeralKeySecret`. */
  expires: z.number().int().optional(),
  /** Locally, the emulator's card-details frame; in AWS the page uses Stripe Issuing Elements. */
  frameUrl: z.string().optional(),
});

/** The activity log, a page at a time (newest first), optionally for one person or kind. */
export const AUDIT_PAGE_MAX = 100;
export const auditInput = z.object({
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: z.string().max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  /** Only events by or about this person (a user id of the team). */
  person: z.string().min(1).max(64).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
});

export const auditOutput = z.object({
  events: z.array(
    z.object({
      eventId: z.string(),
      /** A user id, or 'system' (actorName "Learning Budget (automatic)") for the jobs, the cycles and the card network. */
      actorId: z.string(),
      actorName: z.string().optional(),
      action: z.string(),
      targetId: z.string().optional(),
      targetName: z.string().optional(),
      /** The names of the people the event is about (a reallocation's giver and receivers), by user id. */
      names: z.record(z.string(), z.string()).optional(),
      before: z.record(z.string(), z.unknown()).optional(),
      after: z.record(z.string(), z.unknown()).optional(),
      at: z.string(),
    }),
  ),
  /** Present while older events remain. */
  nextCursor: z.string().nullable(),
});

export { budgetDollars };

export const teamLedgerOutput = z.object({
  entries: z.array(
    z.object({
      entryId: z.string(),
      kind: z.string(),
      description: z.string(),
      postedAt: z.string(),
      legs: z.array(z.object({ account: z.string(), amountCents: z.number().int() })),
      references: z.record(z.string(), z.string()).optional(),
    }),
  ),
});

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'Choose a month (yyyy-mm)' });

/** Longest month range one CSV export covers. */
export const CSV_EXPORT_MAX_MONTHS = 24;

export const teamPurchasesCsvInput = z
  .object({ from: month, to: month })
  // Worded with the form's labels ("From month", "To month"), on the field to change.
  .refine((r) => r.from <= r.to, { error: 'To month must not be before From month', path: ['to'] })
  .refine(
    (r) => {
      const months = (y: string) => Number(y.slice(0, 4)) * 12 + Number(y.slice(5, 7));
      return months(r.to) - months(r.from) < CSV_EXPORT_MAX_MONTHS;
    },
    { error: `Choose at most ${CSV_EXPORT_MAX_MONTHS} months`, path: ['to'] },
  );

/** The accounting export's words for a month not yet begun in the team's calendar (checked against its clock). */
export const ACCOUNTING_MONTH_NOT_STARTED = 'Choose a month that has started: this month or an earlier one';

/** The accounting export (issue 26): one month of the team's calendar, in one tool's journal import format. */
export const accountingExportInput = z.object({
  month,
  format: z.enum(['quickbooks', 'xero'], { error: 'Choose QuickBooks Online or Xero' }),
});

/** A file answer (routes with `responseType`): sent as the file itself, never as JSON. */
export const fileOutput = z.object({ filename: z.string().regex(/^[\w.-]+$/), body: z.string() });

/** What the time zone field says when the value is not a zone it offers. */
export const TIME_ZONE_INVALID = 'Choose a time zone from the list';

/** An IANA zone name (the setup wizard and the team's time zone setting send one from Intl's list). */
export const timeZoneField = z.string().trim().max(64).refine(isTimeZone, { error: TIME_ZONE_INVALID });

export const teamTimeZoneInput = z.object({ timeZone: timeZoneField });
export const teamTimeZoneOutput = z.object({ timeZone: z.string() });
