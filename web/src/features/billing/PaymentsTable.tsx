/**
 * The Subscription page's payments history: what the team's card on file was
 * charged and what was refunded to it, one row per charge, newest first, from
 * GET /subscription's `payments` (docs/decisions.md "Payments history").
 * Refunds read as money back ("Refunded $68.00"), never as a negative charge.
 * On a phone (compact) the date and card sit under the words, so the table
 * fits 375 px as the purchase table does.
 */
import { Table, Text } from '@mantine/core';
import { cardOnFileName } from '@shared/domain/cardBrand';
import { formatCents } from '@shared/domain/money';
import type { PaymentRowOutput } from '@shared/schemas/subscription';
import { useEffect, useRef } from 'react';
import { formatDate } from '../purchases/purchaseText';

/** Names may break anywhere, so they never push the amount off a phone's screen. */
const FREE_TEXT = { overflowWrap: 'anywhere' } as const;

function cardWords(row: PaymentRowOutput): string {
  return row.card ? cardOnFileName(row.card) : 'Card on file';
}

function Amount({ row }: { row: PaymentRowOutput }) {
  if (row.direction === 'refund')
    return (
      // The word says it is money back; no colour (a green light enough to read as "good" fails contrast).
      <Text size="sm" fw={700} data-direction="refund">
        Refunded {formatCents(row.amountCents)}
      </Text>
    );
  return (
    <Text size="sm" data-direction="charge">
      {formatCents(row.amountCents)}
    </Text>
  );
}

export function PaymentsTable({
  rows,
  compact,
  focusRowId,
}: {
  rows: PaymentRowOutput[];
  compact: boolean;
  /**
   * The first row of a page just loaded: it takes the focus, since the button
   * that loaded it may be gone (no older page), which would drop a keyboard
   * user back to the top of the page.
   */
  focusRowId?: string;
}) {
  const focusRef = useRef<HTMLTableRowElement>(null);
  // Once per page loaded, not on every render: a later render must not take the focus back.
  useEffect(() => {
    if (focusRowId) focusRef.current?.focus();
  }, [focusRowId]);
  return (
    <Table striped verticalSpacing="xs" aria-label="Payments">
      <Table.Thead>
        <Table.Tr>
          {compact ? null : (
            <Table.Th scope="col" aria-sort="descending">
              Date
            </Table.Th>
          )}
          <Table.Th scope="col" aria-sort={compact ? 'descending' : undefined}>
            {compact ? 'For, date, card' : 'For'}
          </Table.Th>
          {compact ? null : <Table.Th scope="col">Card</Table.Th>}
          <Table.Th scope="col" ta="right">
            Amount
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr
            key={row.id}
            tabIndex={row.id === focusRowId ? -1 : undefined}
            ref={row.id === focusRowId ? focusRef : undefined}
            data-testid="payment-row"
            data-cents={row.amountCents}
            data-direction={row.direction}
          >
            {compact ? null : <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(row.date)}</Table.Td>}
            <Table.Td style={FREE_TEXT}>
              {row.description}
              {row.note ? (
                <Text size="sm" c="gray.7">
                  {row.note}
                </Text>
              ) : null}
              {compact ? (
                <Text size="sm" c="gray.7">
                  {formatDate(row.date)} · {cardWords(row)}
                </Text>
              ) : null}
            </Table.Td>
            {compact ? null : <Table.Td style={{ whiteSpace: 'nowrap' }}>{cardWords(row)}</Table.Td>}
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              <Amount row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
