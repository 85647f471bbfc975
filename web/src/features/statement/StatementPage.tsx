/**
 * Statement (employee): every movement on their own card - credits, purchases,
 * holds and their release, refunds, reallocations - newest first, with the
 * running balance after each (GET /me/statement). A hold moves money from the
 * card to "on hold", so its lines show the on-hold total as their balance.
 */
import { Alert, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { RouteOutput } from '../../../../shared/src/api/routes';
import { formatCents } from '../../../../shared/src/domain/money';
import { call, errorMessage } from '../../api/client';
import { ScrollableTable } from '../../components/ScrollableTable';
import { useDocumentTitle } from '../../components/useDocumentTitle';

type Line = RouteOutput<'getStatement'>['lines'][number];

/** MM/DD/YYYY (spec §9). */
const usDate = new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });

const KIND_LABELS: Record<string, string> = {
  funding: 'Credit',
  deposit: 'Credit',
  authorization: 'Hold',
  capture: 'Purchase',
  release: 'Release',
  refund: 'Refund',
  reallocation: 'Reallocation',
  poolTransfer: 'Transfer',
  redemption: 'Redemption',
  debtRepayment: 'Repayment',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1);
}

function isHoldLine(line: Line): boolean {
  return line.description.endsWith('(on hold)');
}

export function StatementPage() {
  useDocumentTitle('Statement');
  const [lines, setLines] = useState<Line[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');

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
    return () => abort.abort();
  }, []);

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Statement</Title>
        <Text c="gray.7">
          Every credit, purchase, hold, refund and reallocation on your card, newest first, with the balance
          after each.
        </Text>
      </div>
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
        <ScrollableTable label="Statement, scrolls sideways" minWidth={640}>
          <Table striped verticalSpacing="xs" aria-label="Statement">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Date</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col" ta="right">
                  Amount
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Balance
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={`${line.entryId}-${isHoldLine(line) ? 'hold' : 'card'}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {usDate.format(new Date(line.postedAt))}
                  </Table.Td>
                  <Table.Td>{kindLabel(line.kind)}</Table.Td>
                  <Table.Td>{line.description}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatCents(line.amountCents)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {isHoldLine(line)
                      ? `${formatCents(line.balanceCents)} on hold`
                      : formatCents(line.balanceCents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollableTable>
      ) : null}
    </Stack>
  );
}
