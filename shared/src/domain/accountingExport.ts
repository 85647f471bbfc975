/**
 * The monthly accounting export (issue 26, point 3): a team's money movements
 * of one month of its calendar as manual journals a bookkeeper imports into
 * QuickBooks Online or Xero. Pure: the service reads the month's journal
 * entries (gsi1) and hands them here; docs/accounting-export.md explains the
 * chart, the columns and how the file reconciles with the ledger.
 *
 * Our ledger's accounts map to four accounts of the company's books. The
 * sign convention carries over unchanged: a leg that adds to one of our
 * accounts is a debit of the mapped account, one that takes from it a credit
 * (money into the prepaid budgets is an asset debit, money out of the card on
 * file a bank credit, money paid to merchants an expense debit, a fee kept
 * an expense debit). So every journal balances because every posting does.
 */

import { dayIn, formatUsDay } from './calendar';
import { type CsvValue, spreadsheetSafe, toCsv } from './csv';
import type { AccountId, PostingKind } from './ledger';
import { assertCents, centsAsDecimal } from './money';

/** The company's accounts the export writes to, with their names in QuickBooks Online and codes in Xero. */
export const CHART = {
  prepaid: { name: 'Prepaid learning budgets', xeroCode: 'LBPREPAID' },
  expense: { name: 'Learning and development expense', xeroCode: 'LBEXPENSE' },
  bank: { name: 'Bank / card on file', xeroCode: 'LBBANK' },
  fees: { name: 'Bank fees', xeroCode: 'LBFEES' },
} as const;
export type ChartAccount = keyof typeof CHART;

/**
 * The prepaid budget money sits on employees' cards (spendable, on hold, or
 * owed back after an over-capture) or in the team pool; the two are said
 * apart on the prepaid lines so a move to the pool or a reallocation shows
 * as what it is rather than netting to nothing.
 */
type PrepaidPart = 'cards' | 'pool';

const PART_WORDS: Record<PrepaidPart, string> = { cards: 'employee cards', pool: 'team pool' };

/** Where a ledger account lands in the company's books. */
export function chartAccountOf(account: AccountId): { chart: ChartAccount; part?: PrepaidPart } {
  const kind = account.slice(0, account.indexOf(':'));
  switch (kind) {
    case 'card':
    case 'hold':
    case 'debt':
      return { chart: 'prepaid', part: 'cards' };
    case 'pool':
      return { chart: 'prepaid', part: 'pool' };
    case 'network':
      return { chart: 'expense' };
    case 'external':
      return { chart: 'bank' };
    case 'revenue':
      return { chart: 'fees' };
    default:
      throw new Error(`no chart account for ${account}`);
  }
}

/**
 * The movements a bookkeeper records, in the order a day's journals are
 * listed, with the short code that names their journal. Left out: holds and
 * their releases, debt repayments (all inside the prepaid budgets, so they
 * change no account of the company's) and the one-off account split of issue
 * 12 (between two of our accounts that map to the same one).
 */
export const EXPORTED_KINDS = {
  funding: { code: 'CHG', label: 'Budget charges (joining and monthly)', noun: ['charge', 'charges'] },
  deposit: { code: 'DEP', label: 'Extra deposits', noun: ['deposit', 'deposits'] },
  capture: { code: 'SPEND', label: 'Card spend', noun: ['purchase', 'purchases'] },
  refund: { code: 'MREF', label: 'Merchant refunds', noun: ['refund', 'refunds'] },
  poolTransfer: { code: 'POOL', label: 'Moved to the team pool', noun: ['move', 'moves'] },
  reallocation: { code: 'REALLOC', label: 'Reallocations from the team pool', noun: ['entry', 'entries'] },
  redemption: {
    code: 'REDEEM',
    label: 'Redemptions to the card on file, less the fee',
    noun: ['redemption', 'redemptions'],
  },
} as const satisfies Partial<Record<PostingKind, { code: string; label: string; noun: [string, string] }>>;
export type ExportedKind = keyof typeof EXPORTED_KINDS;

export function isExportedKind(kind: PostingKind): kind is ExportedKind {
  return Object.hasOwn(EXPORTED_KINDS, kind);
}

/** What the export needs of a journal entry (data/ledger.ts `JournalEntry` has it). */
export interface ExportEntry {
  kind: PostingKind;
  postedAt: string;
  legs: readonly { account: AccountId; amountCents: number }[];
}

export interface JournalLine {
  chart: ChartAccount;
  /** Positive: a debit; negative: a credit. Never zero. */
  cents: number;
  description: string;
}

export interface Journal {
  /** `LB-yyyymmdd-CODE`: stable, so importing the same month twice trips the tools' duplicate-number check. */
  number: string;
  /** The team's calendar day. */
  day: string;
  kind: ExportedKind;
  /** How many ledger entries it sums. */
  entries: number;
  lines: JournalLine[];
}

const CHART_ORDER: readonly ChartAccount[] = ['prepaid', 'expense', 'bank', 'fees'];
const PART_ORDER: readonly (PrepaidPart | undefined)[] = ['cards', 'pool', undefined];

/**
 * One journal per movement kind per day of the team's calendar: a bookkeeper
 * matches the card-on-file lines against the bank statement (where a day's
 * charges arrive together) and reads spend as a daily total, so a line per
 * purchase would only bury them; the purchases CSV has each one.
 */
export function buildJournals(entries: Iterable<ExportEntry>, zone: string): Journal[] {
  const groups = new Map<
    string,
    { day: string; kind: ExportedKind; entries: number; sums: Map<string, number> }
  >();
  for (const entry of entries) {
    if (!isExportedKind(entry.kind)) continue;
    const day = dayIn(entry.postedAt, zone);
    const key = `${day}#${entry.kind}`;
    let group = groups.get(key);
    if (!group) {
      group = { day, kind: entry.kind, entries: 0, sums: new Map() };
      groups.set(key, group);
    }
    group.entries += 1;
    for (const leg of entry.legs) {
      assertCents(leg.amountCents, `leg on ${leg.account}`);
      const { chart, part } = chartAccountOf(leg.account);
      const lineKey = `${chart}#${part ?? ''}`;
      group.sums.set(lineKey, (group.sums.get(lineKey) ?? 0) + leg.amountCents);
    }
  }
  const kindOrder = Object.keys(EXPORTED_KINDS);
  return [...groups.values()]
    .sort((a, b) =>
      a.day < b.day ? -1 : a.day > b.day ? 1 : kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind),
    )
    .map((group) => {
      const meta = EXPORTED_KINDS[group.kind];
      const counted = `${meta.label}, ${group.entries} ${meta.noun[group.entries === 1 ? 0 : 1]}`;
      const lines: (JournalLine & { order: number })[] = [];
      for (const [lineKey, cents] of group.sums) {
        if (cents === 0) continue;
        const [chart, rawPart] = lineKey.split('#') as [ChartAccount, string];
        const part = (rawPart || undefined) as PrepaidPart | undefined;
        lines.push({
          chart,
          cents,
          description: part ? `${counted}: ${PART_WORDS[part]}` : counted,
          order: CHART_ORDER.indexOf(chart) * 10 + PART_ORDER.indexOf(part),
        });
      }
      // Debits first, as a journal is written by hand.
      lines.sort((a, b) => Number(b.cents > 0) - Number(a.cents > 0) || a.order - b.order);
      return {
        number: `LB-${group.day.replaceAll('-', '')}-${meta.code}`,
        day: group.day,
        kind: group.kind,
        entries: group.entries,
        lines: lines.map(({ order: _order, ...line }) => line),
      };
    })
    .filter((journal) => journal.lines.length > 0);
}

const MONTH_ABBREVIATIONS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/**
 * `dd mmm yyyy` (`03 Nov 2026`): one of the two date formats Xero's manual
 * journal import reads, and the one no organisation's region can read the
 * wrong way round (`03/11/2026` is March in one and November in another).
 */
export function xeroDate(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date} ${MONTH_ABBREVIATIONS[Number(month) - 1]} ${year}`;
}

/** QuickBooks Online "Import journal entries": one row per line, rows of a journal share its Journal No. */
export const QUICKBOOKS_HEADER = [
  'Journal No',
  'Journal Date',
  'Account',
  'Debits',
  'Credits',
  'Description',
  'Name',
] as const;

/** Xero "Import manual journals" template: rows of a journal share its Narration and Date; Amount > 0 is a debit. */
export const XERO_HEADER = [
  '*Narration',
  '*Date',
  'Description',
  '*AccountCode',
  '*TaxRate',
  '*Amount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
] as const;

/** Xero's name for the rate of a US organisation's untaxed lines (moving prepaid money is not a taxable supply). */
export const XERO_TAX_RATE = 'Tax Exempt';

export type AccountingFormat = 'quickbooks' | 'xero';

export function quickbooksCsv(journals: readonly Journal[]): string {
  const rows: CsvValue[][] = [];
  for (const journal of journals) {
    for (const line of journal.lines) {
      rows.push([
        journal.number,
        formatUsDay(journal.day),
        CHART[line.chart].name,
        line.cents > 0 ? centsAsDecimal(line.cents) : '',
        line.cents < 0 ? centsAsDecimal(-line.cents) : '',
        spreadsheetSafe(line.description),
        '',
      ]);
    }
  }
  return toCsv(QUICKBOOKS_HEADER, rows);
}

export function xeroCsv(journals: readonly Journal[]): string {
  const rows: CsvValue[][] = [];
  for (const journal of journals) {
    const narration = `Learning budgets: ${EXPORTED_KINDS[journal.kind].label} (${journal.number})`;
    for (const line of journal.lines) {
      rows.push([
        spreadsheetSafe(narration),
        xeroDate(journal.day),
        spreadsheetSafe(line.description),
        CHART[line.chart].xeroCode,
        XERO_TAX_RATE,
        centsAsDecimal(line.cents),
        '',
        '',
        '',
        '',
      ]);
    }
  }
  return toCsv(XERO_HEADER, rows);
}

export function accountingCsv(format: AccountingFormat, journals: readonly Journal[]): string {
  return format === 'quickbooks' ? quickbooksCsv(journals) : xeroCsv(journals);
}
