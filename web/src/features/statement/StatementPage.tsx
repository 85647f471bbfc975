/**
 * Statement (employee): every movement on their own card - credits, holds,
 * purchases, holds released or expired, refunds, reallocations, debt collected -
 * one row each, newest first, with what the card can still spend after it and
 * what is on hold (GET /me/statement). The server sends finished rows
 * (shared/src/domain/statement.ts); this page only shows them. Phones get the
 * compact layout of Purchase History: date and type under the description, the
 * balance under the amount, nothing off-screen.
 * Above it (issue 26): what is left this month and the person's spend by
 * skill area month by month (GET /me/spend), its chart code loaded lazily.
 */
import { Alert, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import type { MySpendAnswer } from '@shared/schemas/insights';
import { lazy, Suspense, useEffect, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { useCardMoneyMoves } from '../../stores/card';
import { formatDate } from '../../stores/teamCalendar';
import { readMySpend } from '../insights/insightsApi';

const MySpend = lazy(() => import('../insights/MySpend').then((m) => ({ default: m.MySpend })));

type Line = RouteOutput<'getStatement'>['lines'][number];

const HOLD_TYPES: ReadonlySet<Line['type']> = new Set(['hold', 'purchase', 'holdReleased', 'holdExpired']);

/** A credit carries its "+", so money in does not rely on the absence of a minus (nor on a colour). */
function Amount({ line }: { line: Line }) {
  if (line.type === 'declined') {
    // Its price, said in words to be no movement: the balances beside it did not change.
    return (
      <>
        <Text span inherit fw={600} td="line-through">
          {formatCents(line.declinedCents ?? 0)}
        </Text>
        <Text size="sm" c="gray.7">
          Not charged
        </Text>
      </>
    );
  }
  return (
    <Text span inherit fw={600}>
      {line.amountCents > 0 ? `+${formatCents(line.amountCents)}` : formatCents(line.amountCents)}
    </Text>
  );
}

/** What is on hold and owed after the row: shown where a hold is involved, or while anything is held or owed. */
function BalanceNotes({ line }: { line: Line }) {
  const showHold = HOLD_TYPES.has(line.type) || line.onHoldCents > 0;
  return (
    <>
      {showHold ? (
        <Text size="sm" c="gray.7">
          {line.onHoldCents > 0 ? `${formatCents(line.onHoldCents)} on hold` : 'nothing on hold'}
        </Text>
      ) : null}
      {line.owedCents > 0 ? (
        <Text size="sm" c="red.9">
          {formatCents(line.owedCents)} owed
        </Text>
      ) : null}
    </>
  );
}

/** The row's type; a declined purchase stands out (in bold, not only in colour). */
function Label({ line }: { line: Line }) {
  return line.type === 'declined' ? (
    <Text span inherit fw={700} c="red.9">
      {line.label}
    </Text>
  ) : (
    line.label
  );
}

function Detail({ line }: { line: Line }) {
  return line.detail ? (
    <Text size="sm" c="gray.7">
      {line.detail}
    </Text>
  ) : null;
}

function WideRow({ line }: { line: Line }) {
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(line.postedAt)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Label line={line} />
      </Table.Td>
      <Table.Td>
        {line.description}
        <Detail line={line} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Amount line={line} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatCents(line.availableCents)}
        <BalanceNotes line={line} />
      </Table.Td>
    </Table.Tr>
  );
}

function CompactRow({ line }: { line: Line }) {
  return (
    <Table.Tr>
      <Table.Td>
        {line.description}
        <Text size="sm" c="gray.7">
          {formatDate(line.postedAt)} · <Label line={line} />
        </Text>
        <Detail line={line} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Amount line={line} />
        <Text size="sm">Available {formatCents(line.availableCents)}</Text>
        <BalanceNotes line={line} />
      </Table.Td>
    </Table.Tr>
  );
}

export function StatementPage() {
  useDocumentTitle('Statement');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [lines, setLines] = useState<Line[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const [spend, setSpend] = useState<MySpendAnswer>();
  const [spendError, setSpendError] = useState('');

  // The card's money moved (polled for the header): read the statement again, so a purchase shows at once.
  const moves = useCardMoneyMoves();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` is the reason to read again, not a value the read uses.
  useEffect(() => {
    const abort = new AbortController();
    call('getStatement', {}, { signal: abort.signal })
      .then((statement) => {
        setLines(statement.lines);
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorMessage(e));
        setStatus('error');
      });
    readMySpend(abort.signal)
      .then((answer) => {
        setSpend(answer);
        setSpendError('');
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setSpendError(errorMessage(e));
      });
    return () => abort.abort();
  }, [moves]);

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>{pageHeadings.statement.title}</Title>
        <Text c="gray.7">{pageHeadings.statement.lead}</Text>
      </div>
      {spendError ? (
        <Alert color="red" title="Could not load your spend by skill area">
          {spendError}
        </Alert>
      ) : null}
      {spend ? (
        <Suspense
          fallback={
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text>Loading your spend by skill area…</Text>
            </Group>
          }
        >
          <MySpend spend={spend} />
        </Suspense>
      ) : null}
      {status === 'error' ? (
        <Alert color="red" title="Could not load your statement">
          {error}
        </Alert>
      ) : null}
      {status === 'loading' ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text>Loading your statement…</Text>
        </Group>
      ) : null}
      {status === 'ready' && lines.length === 0 ? <Text>Nothing has moved on your card yet.</Text> : null}
      {lines.length > 0 ? (
        <ScrollableTable label="Statement, scrolls sideways" minWidth={phone ? 0 : 720}>
          <Table striped verticalSpacing="xs" aria-label="Statement">
            <Table.Thead>
              {phone ? (
                <Table.Tr>
                  <Table.Th scope="col" aria-sort="descending">
                    Description, date, type
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Amount, balance
                  </Table.Th>
                </Table.Tr>
              ) : (
                <Table.Tr>
                  <Table.Th scope="col" aria-sort="descending">
                    Date
                  </Table.Th>
                  <Table.Th scope="col">Type</Table.Th>
                  <Table.Th scope="col">Description</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Amount
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Available balance
                  </Table.Th>
                </Table.Tr>
              )}
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) =>
                phone ? (
                  <CompactRow key={line.entryId} line={line} />
                ) : (
                  <WideRow key={line.entryId} line={line} />
                ),
              )}
            </Table.Tbody>
          </Table>
        </ScrollableTable>
      ) : null}
    </Stack>
  );
}
