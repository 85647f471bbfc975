/**
 * /importRoster (issue 28, part 2): a manager chooses a CSV of first name,
 * last name, e-mail, budget and start date. The file is read here and every
 * row checked before anything happens (shared/src/schemas/roster.ts: the
 * invitation form's e-mail and budget rules, the same e-mail twice, a start
 * date in the past or not a date, and who is already on the team); a file with
 * any bad row cannot be imported, and says why on each line. Import sends the
 * rows; the server checks them again, invites those starting today and
 * schedules the rest for their start day, and answers per row. The same file
 * twice changes nothing (every row is "already there").
 */
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { dayIn, formatUsDay } from '@shared/domain/calendar';
import { formatCents } from '@shared/domain/money';
import {
  type AlreadyThere,
  type CheckedRow,
  checkRoster,
  MAX_ROSTER_ROWS,
  parseRosterCsv,
  plannedText,
  ROSTER_HEADERS,
  type RosterRow,
} from '@shared/schemas/roster';
import { type ChangeEvent, useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, call, errorMessage, isStepUpCancelled } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { notify } from '../../stores/notifications';
import { teamZone } from '../../stores/teamCalendar';
import { useEmployees } from './employeesStore';

type Result = RouteOutput<'importRoster'>['results'][number];

/** Green and red alert titles in dark text: the light variant's own colour is below 4.5:1 on its background. */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-dark-7)' } };

const TEMPLATE = `${ROSTER_HEADERS.join(',')}\nAnn,Lee,ann@company.com,25,\nBob,Diaz,bob@company.com,40,01/15/2027\n`;

function resultText(r: Result): string {
  switch (r.result) {
    case 'invited':
      return r.emailed === false
        ? "Invited, but not emailed: this address has had today's invitation emails already"
        : 'Invited';
    case 'scheduled':
      return `Scheduled: invited on ${r.startDay ? formatUsDay(r.startDay) : 'their start date'}`;
    case 'alreadyThere':
      return 'Already there: nothing changed';
    case 'alreadyRegistered':
      return 'Already registered: not invited again';
    case 'invitedByAnotherTeam':
      return 'Invited by another team';
  }
}

export function RosterImportPage() {
  useDocumentTitle('Import roster');
  const rows = useEmployees((s) => s.rows);
  const scheduled = useEmployees((s) => s.scheduled);
  const status = useEmployees((s) => s.status);
  const reload = useEmployees((s) => s.load);
  const inputId = useId();
  const [file, setFile] = useState<{ rows: RosterRow[] } | { error: string } | null>(null);
  /** Messages the server gave per line (it checks again), shown with the rows. */
  const [serverErrors, setServerErrors] = useState<Record<number, string>>({});
  const [results, setResults] = useState<Result[] | null>(null);
  const [busy, setBusy] = useState(false);

  // Who is on the team already: the check must know (a direct visit has not loaded them yet).
  useEffect(() => {
    if (status === 'idle') void reload();
  }, [status, reload]);

  const today = dayIn(new Date(), teamZone());
  const known = useMemo(() => {
    const map = new Map<string, AlreadyThere>();
    for (const s of scheduled) map.set(s.email, 'scheduled');
    for (const r of rows) map.set(r.email, r.status === 'invited' ? 'invited' : 'member');
    return map;
  }, [rows, scheduled]);

  const checked: CheckedRow[] | null = useMemo(() => {
    if (!file || !('rows' in file)) return null;
    return checkRoster(file.rows, today, (email) => known.get(email)).map((row) => {
      const fromServer = serverErrors[row.line];
      return fromServer && row.errors.length === 0 ? { ...row, errors: [fromServer] } : row;
    });
  }, [file, today, known, serverErrors]);

  const bad = checked?.filter((r) => r.errors.length > 0) ?? [];
  const already = checked?.filter((r) => r.errors.length === 0 && r.already) ?? [];
  const ready = checked?.filter((r) => r.errors.length === 0 && !r.already) ?? [];

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.currentTarget.files?.[0];
    setResults(null);
    setServerErrors({});
    if (!chosen) {
      setFile(null);
      return;
    }
    setFile(parseRosterCsv(await chosen.text()));
  }

  async function apply() {
    if (!file || !('rows' in file) || bad.length > 0 || busy) return;
    setBusy(true);
    try {
      // Past the step-up threshold (counted as the import counts it): 'Confirm it is you' before sending.
      const { needsFreshFactor } = await call('importRoster', { rows: file.rows, preview: true });
      const answer = await call(
        'importRoster',
        { rows: file.rows },
        { freshFactor: needsFreshFactor === true },
      );
      setResults(answer.results);
      notify({ kind: 'success', message: 'Roster imported' });
      void reload();
    } catch (error) {
      if (isStepUpCancelled(error)) return;
      if (error instanceof ApiError && error.fields) {
        // The server found what the browser could not (someone joined meanwhile): shown on the lines.
        const byLine: Record<number, string> = {};
        for (const [key, message] of Object.entries(error.fields)) {
          const line = Number(key.replace(/^line /, ''));
          if (Number.isInteger(line)) byLine[line] = message;
        }
        setServerErrors(byLine);
      }
      notify({ kind: 'error', message: `Error on importing the roster: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  const resultOf = new Map(results?.map((r) => [r.line, r]) ?? []);

  return (
    <Stack gap="lg" maw={860}>
      <div>
        <Title order={1}>Import roster</Title>
        <Text c="gray.7">
          Add many people at once from a CSV file with the columns {ROSTER_HEADERS.join(', ')}. People
          starting today or with no start date are invited now; the others are invited on their start date
          (your team's calendar). Every row is checked before anything happens, and importing the same file
          again changes nothing.
        </Text>
      </div>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="sm">
          <label htmlFor={inputId}>
            <Text fw={600} span>
              Roster file (CSV)
            </Text>
          </label>
          <Text size="sm" c="gray.7" id={`${inputId}-help`}>
            Budgets in whole dollars (at most $10,000); start dates written MM/DD/YYYY; at most{' '}
            {MAX_ROSTER_ROWS} rows.{' '}
            <a
              href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`}
              download="roster-template.csv"
            >
              Download a template
            </a>
          </Text>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${inputId}-help`}
            onChange={(event) => void choose(event)}
            data-testid="roster-file"
          />
        </Stack>
      </Paper>

      {file && 'error' in file ? (
        <Alert color="red" variant="light" title="This file cannot be read" role="alert">
          <Text size="sm" c="dark">
            {file.error} The first line may name the columns: {ROSTER_HEADERS.join(', ')}.
          </Text>
        </Alert>
      ) : null}

      {checked && !results ? (
        <Stack gap="sm" aria-live="polite">
          <Alert
            color={bad.length > 0 ? 'red' : 'green'}
            variant="light"
            title={
              bad.length > 0
                ? `${bad.length === 1 ? '1 row needs' : `${bad.length} rows need`} a fix. Nothing has been imported.`
                : 'Every row is ready'
            }
            data-testid="roster-summary"
            styles={READABLE_TITLE}
          >
            <Text size="sm" c="dark">
              {[
                `${ready.length} to invite or schedule`,
                already.length > 0 ? `${already.length} already there` : '',
                bad.length > 0 ? 'Fix the rows marked below in your file and choose it again.' : '',
              ]
                .filter(Boolean)
                .join('. ')}
            </Text>
          </Alert>
          <RowList rows={checked} text={(r) => plannedText(r, today)} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to="/dashboard/employees">
              Cancel
            </Button>
            <Button
              onClick={() => void apply()}
              loading={busy}
              disabled={bad.length > 0 || ready.length === 0}
            >
              {ready.length === 1 ? 'Import 1 person' : `Import ${ready.length} people`}
            </Button>
          </Group>
        </Stack>
      ) : null}

      {checked && results ? (
        <Stack gap="sm" aria-live="polite">
          <Alert
            color="green"
            variant="light"
            title="Roster imported"
            data-testid="roster-results"
            styles={READABLE_TITLE}
          >
            <Text size="sm" c="dark">
              {results.filter((r) => r.result === 'invited').length} invited now,{' '}
              {results.filter((r) => r.result === 'scheduled').length} scheduled,{' '}
              {results.filter((r) => r.result !== 'invited' && r.result !== 'scheduled').length} unchanged.
            </Text>
          </Alert>
          <RowList
            rows={checked}
            text={(r) => {
              const result = resultOf.get(r.line);
              return result ? resultText(result) : plannedText(r, today);
            }}
            result={(r) => resultOf.get(r.line)?.result}
          />
          <Group justify="flex-end">
            <Button component={Link} to="/dashboard/employees">
              Back to Employees
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}

function RowList(props: {
  rows: CheckedRow[];
  text: (row: CheckedRow) => string;
  result?: (row: CheckedRow) => string | undefined;
}) {
  return (
    <List listStyleType="none" spacing="xs" aria-label="Rows of the file" data-testid="roster-rows">
      {props.rows.map((row) => {
        const error = row.errors.length > 0;
        return (
          <List.Item
            key={row.line}
            data-line={row.line}
            data-error={error ? 'true' : undefined}
            data-result={props.result?.(row)}
            styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}
          >
            <Paper
              withBorder
              p="sm"
              radius="sm"
              style={error ? { borderColor: 'var(--mantine-color-red-7)' } : {}}
            >
              <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
                <div style={{ minWidth: 0, flex: '1 1 16rem' }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    Line {row.line}: {`${row.firstName} ${row.lastName}`.trim() || 'No name'}
                  </Text>
                  <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                    {row.email || 'No email'}
                    {row.budgetCents !== undefined ? ` · ${formatCents(row.budgetCents)} a month` : ''}
                    {row.startDay ? ` · starts ${formatUsDay(row.startDay)}` : ''}
                  </Text>
                </div>
                {error ? (
                  <Text size="xs" fw={700} c="red.9">
                    Needs a fix
                  </Text>
                ) : null}
              </Group>
              <Text size="sm" mt={4} c={error ? 'red.9' : 'dark'} data-row-text>
                {props.text(row)}
              </Text>
            </Paper>
          </List.Item>
        );
      })}
    </List>
  );
}
