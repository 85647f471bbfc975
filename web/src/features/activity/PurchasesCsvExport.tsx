/**
 * 'Download CSV' (manager): the team's purchases in a month range with each
 * one's receipt state (GET /team/purchases.csv). Months are the team's
 * calendar's, like every date the CSV prints (issue 25, "One calendar").
 */
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { fieldErrorsOf } from '@shared/schemas/common';
import { teamPurchasesCsvInput } from '@shared/schemas/team';
import { type FormEvent, useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { saveFile } from '../../components/saveFile';
import { teamMonth } from '../../stores/teamCalendar';

export function PurchasesCsvExport() {
  const [from, setFrom] = useState(teamMonth);
  const [to, setTo] = useState(teamMonth);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ from?: string; to?: string }>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError('');
    // The server's own rules, checked first so the problem shows on its field at once.
    const checked = teamPurchasesCsvInput.safeParse({ from, to });
    setFieldErrors(checked.success ? {} : fieldErrorsOf(checked.error));
    if (!checked.success) return;
    setBusy(true);
    try {
      const file = await call('exportTeamPurchases', { from, to });
      saveFile(`purchases-${from}-to-${to}.csv`, file.body);
    } catch (e) {
      if (e instanceof ApiError && e.fields) setFieldErrors(e.fields);
      else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="purchases-csv-title">
      <Title order={2} size="h4" id="purchases-csv-title">
        Purchases as a spreadsheet
      </Title>
      <Text size="sm" c="gray.7">
        Every purchase your team made in these months, with its receipt state, as a CSV file.
      </Text>
      <form onSubmit={(event) => void onSubmit(event)}>
        <Group gap="sm" align="flex-end">
          <TextInput
            type="month"
            label="From month"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={fieldErrors.from}
            required
            w={180}
          />
          <TextInput
            type="month"
            label="To month"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={fieldErrors.to}
            required
            w={180}
          />
          <Button type="submit" variant="default" loading={busy}>
            Download CSV
          </Button>
        </Group>
      </form>
      {error ? (
        <Alert color="red" title="Could not download the purchases" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
