/** Purchase history and receipts (issue 10): list, upload, confirm, view. */
import { z } from 'zod';
import { RECEIPT_TYPES } from '../domain/receiptFiles';
import { month, outOfOrder, purchaseMedia, SKILL_SOURCES, skillAreas } from './insights';

export const PURCHASES_PAGE_MAX = 100;

/**
 * `declined`: the card refused it (the row shows what was asked and why);
 * nothing was held or taken, and no receipt is asked for.
 */
export const PURCHASE_STATUSES = ['pending', 'settled', 'refunded', 'partlyRefunded', 'declined'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** `none`: no receipt is asked for (a declined purchase). */
export const RECEIPT_STATES = ['awaiting', 'received', 'overdue', 'none'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];

/**
 * The filter Insights links with (issue 26): any of them lists only money
 * that moved (settled, partly refunded, refunded purchases), no holds still
 * pending and no declines. `from`/`to` are months of the team's calendar, both
 * included; `person` a user id (an employee may name only themselves);
 * `skill`/`media` count a purchase without one as Uncategorised / other;
 * `receipts=awaiting` a receipt awaiting or overdue.
 */
export const PURCHASE_FILTER_KEYS = [
  'from',
  'to',
  'person',
  'skill',
  'media',
  'merchant',
  'receipts',
] as const;

export const listPurchasesInput = z
  .object({
    /** Opaque: the `nextCursor` of the previous page. */
    cursor: z.string().max(1000).optional(),
    limit: z.coerce.number().int().min(1).max(PURCHASES_PAGE_MAX).default(25),
    from: month.optional(),
    to: month.optional(),
    person: z
      .string()
      .regex(/^[\w-]{1,80}$/, 'Choose a person')
      .optional(),
    skill: z.enum(skillAreas, { error: 'Choose a skill area from the list' }).optional(),
    media: z.enum(purchaseMedia, { error: 'Choose a media type from the list' }).optional(),
    merchant: z
      .string()
      .min(1, 'Name a merchant')
      .max(200, 'A merchant name has at most 200 characters')
      .optional(),
    receipts: z.enum(['awaiting'], { error: 'Only purchases awaiting a receipt can be filtered' }).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, outOfOrder);
export type ListPurchasesInput = z.infer<typeof listPurchasesInput>;

const purchaseIdField = z.string().regex(/^[\w-]{3,80}$/, 'Invalid purchase id');

export const purchaseRow = z.object({
  purchaseId: z.string(),
  /** The employee's title, given with the receipt; null until then. */
  title: z.string().nullable(),
  /** When the purchase was made (ISO time). */
  date: z.string(),
  /** What the ledger settled, cents (declined: what was asked, never taken). */
  amountCents: z.number().int(),
  /** What the merchant refunded so far, cents. */
  refundedCents: z.number().int(),
  vendor: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  /** Why the card refused it, in the words the employee was shown: only on a declined row. */
  declineReason: z.string().optional(),
  receipt: z.object({
    state: z.enum(RECEIPT_STATES),
    /** Last day (`yyyy-mm-dd`) the receipt is on time; empty when none is asked for. */
    dueDate: z.string(),
    /** The manager has looked at it: the employee can no longer replace it. */
    seen: z.boolean(),
  }),
  /** Whose purchase: filled for a manager's list. */
  employeeId: z.string(),
  employeeName: z.string().optional(),
  /** Skill area and media type (issue 26), on settled rows: inferred, set by a person, or Uncategorised / other (`none`). Absent on pending and declined rows. */
  skillArea: z.enum(skillAreas).optional(),
  media: z.enum(purchaseMedia).optional(),
  skillSource: z.enum(SKILL_SOURCES).optional(),
});
export type PurchaseRow = z.infer<typeof purchaseRow>;

export const listPurchasesOutput = z.object({
  purchases: z.array(purchaseRow),
  nextCursor: z.string().nullable(),
});

export const purchaseIdInput = z.object({ purchaseId: purchaseIdField });

export const receiptUploadInput = z.object({
  purchaseId: purchaseIdField,
  /** The file's type; refused with the spec's message unless png, jpeg or gif. */
  contentType: z.string().max(200),
  /** The file's size in bytes; refused with the spec's message above the limit. */
  size: z.number().int().min(0),
  /** Only for the messages; never part of the stored key. */
  fileName: z.string().max(255).default('file'),
});

export const receiptUploadOutput = z.object({
  /** Names this upload in the confirm call. */
  uploadId: z.string(),
  /** A presigned POST: send the fields, then the file last, as multipart/form-data. */
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});

export const confirmReceiptInput = z.object({
  purchaseId: purchaseIdField,
  uploadId: z.string().regex(/^[0-9A-Z]{26}$/, 'Invalid upload id'),
  title: z.string().trim().min(1, 'Title is required').max(120),
  fileName: z.string().max(255).default('file'),
});

/**
 * What the receipt did to a card frozen for missing receipts (services/receipts/receiptPolicy.ts
 * `onReceiptReceived`), so the page says whether the card works again: `active`
 * (the last overdue receipt is in), `stillOverdue` (others are still missing),
 * `stillFrozen` (receipts are all in, another reason keeps it frozen),
 * `notFrozenForReceipts` (there was no receipt freeze).
 */
export const CARD_AFTER_RECEIPT = ['notFrozenForReceipts', 'stillOverdue', 'active', 'stillFrozen'] as const;
export type CardAfterReceipt = (typeof CARD_AFTER_RECEIPT)[number];

export const confirmReceiptOutput = z.object({ purchase: purchaseRow, card: z.enum(CARD_AFTER_RECEIPT) });

export const receiptUrlOutput = z.object({
  /** A presigned GET, valid for a minute. */
  url: z.string(),
  expiresAt: z.string(),
  contentType: z.enum(RECEIPT_TYPES),
  title: z.string().nullable(),
});

/** What a purchase's status is, from what the ledger settled and refunded. */
export function purchaseStatusOf(p: { amountCents: number; refundedCents: number; settled: boolean }) {
  if (!p.settled) return 'pending' as const;
  if (p.refundedCents <= 0) return 'settled' as const;
  return p.refundedCents >= p.amountCents ? ('refunded' as const) : ('partlyRefunded' as const);
}
