/**
 * The Subscription page's accounting export (issue 26, point 3): a month of
 * the team's calendar (last month by default: the one a bookkeeper closes) as
 * manual journals to import into QuickBooks Online or Xero, from
 * GET /exports/accounting. The months are the team's, like every date the
 * product prints; a month not yet begun is refused on its field before asking.
 * docs/accounting-export.md has the accounts and columns.
 */
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type AccountingFormat, CHART } from '@shared/domain/accountingExport';
import { fieldErrorsOf } from '@shared/schemas/common';
import { ACCOUNTING_MONTH_NOT_STARTED, accountingExportInput } from '@shared/schemas/team';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { saveFile } from '../../components/saveFile';
import { teamMonth } from '../../stores/teamCalendar';

const FORMATS: { format: AccountingFormat; label: string }[] = [
  { format: 'quickbooks', label: 'QuickBooks Online (CSV)' },
  { format: 'xero', label: 'Xero (CSV)' },
];

function monthBefore(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

export function AccountingExport() {
  const [month, setMonth] = useState(() => monthBefore(teamMonth()));
  const [busy, setBusy] = useState<AccountingFormat | undefined>();
  const [error, setError] = useState('');
  const [monthError, setMonthError] = useState<string | undefined>();

  async function download(format: AccountingFormat) {
    setError('');
    // The server's own rules, checked first so the problem shows on the field at once.
    const checked = accountingExportInput.safeParse({ month, format });
    const problem = checked.success
      ? month > teamMonth()
        ? ACCOUNTING_MONTH_NOT_STARTED
        : undefined
      : fieldErrorsOf(checked.error).month;
    setMonthError(problem);
    if (problem) return;
    setBusy(format);
    try {
      const file = await call('exportAccounting', { month, format });
      saveFile(`learning-budgets-${month}-${format}.csv`, file.body);
    } catch (e) {
      if (e instanceof ApiError && e.fields?.month) setMonthError(e.fields.month);
      else setError(errorMessage(e));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="accounting-export-title">
      <Title order={2} size="h3" id="accounting-export-title">
        Accounting export
      </Title>
      <Text size="sm" c="gray.7">
        A month of your learning budgets' money as journal entries to import into your accounting software:
        charges to your card, card spend less merchant refunds, moves to the team pool, reallocations,
        redemptions and their fees, summed per kind per day.
      </Text>
      <Text size="sm" c="gray.7">
        The entries use the accounts {CHART.prepaid.name}, {CHART.expense.name}, {CHART.bank.name} and{' '}
        {CHART.fees.name} (Xero codes {CHART.prepaid.xeroCode}, {CHART.expense.xeroCode},{' '}
        {CHART.bank.xeroCode}, {CHART.fees.xeroCode}): add them to your chart of accounts, or rename them in
        the file, before importing.
      </Text>
      <Group gap="sm" align="flex-end">
        <TextInput
          type="month"
          label="Month"
          value={month}
          max={teamMonth()}
          onChange={(e) => setMonth(e.currentTarget.value)}
          error={monthError}
          required
          w={180}
        />
        {FORMATS.map(({ format, label }) => (
          <Button
            key={format}
            variant="default"
            loading={busy === format}
            disabled={busy !== undefined && busy !== format}
            onClick={() => void download(format)}
          >
            {label}
          </Button>
        ))}
      </Group>
      {error ? (
        <Alert color="red" title="Could not download the accounting export" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
