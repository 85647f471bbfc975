/**
 * The monthly accounting export (issue 26, point 3; docs/accounting-export.md):
 * one month of the team's calendar of money movements as manual journals in
 * QuickBooks Online's or Xero's import CSV. Reads the month's journal entries
 * with one bounded gsi1 query (pattern AE1; no Scan, nothing outside the
 * month), and leaves the accounting to the pure shared/src/domain/accountingExport.ts.
 */
import { type AccountingFormat, accountingCsv, buildJournals } from '@shared/domain/accountingExport';
import { dayIn, startOfDayIn } from '@shared/domain/calendar';
import { AppError } from '@shared/errors';
import { ACCOUNTING_MONTH_NOT_STARTED } from '@shared/schemas/team';
import { getTeamZone } from '../../data/accounts';
import { teamJournalBetween } from '../../data/ledger';
import type { Actor } from '../../platform/auth';

function monthAfter(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

export async function exportAccounting(
  actor: Actor,
  input: { month: string; format: AccountingFormat },
  now: Date,
) {
  const zone = await getTeamZone(actor.teamId);
  // The current month is allowed (its days so far); a later one has nothing to export yet.
  if (input.month > dayIn(now, zone).slice(0, 7)) {
    throw new AppError('VALIDATION_FAILED', ACCOUNTING_MONTH_NOT_STARTED, {
      fields: { month: ACCOUNTING_MONTH_NOT_STARTED },
    });
  }
  const start = startOfDayIn(`${input.month}-01`, zone).toISOString();
  const end = startOfDayIn(`${monthAfter(input.month)}-01`, zone).toISOString();
  const entries = await teamJournalBetween(actor.teamId, start, end);
  return {
    filename: `learning-budgets-${input.month}-${input.format}.csv`,
    body: accountingCsv(input.format, buildJournals(entries, zone)),
  };
}
