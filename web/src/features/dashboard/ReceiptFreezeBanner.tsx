/**
 * On an employee's dashboard while their card is frozen for a missing
 * receipt: what is wrong, which purchase's receipt lifts it, and a button
 * that opens that upload (docs/decisions.md "Receipt deadline"). It reads the
 * card store the header polls, so it goes away by itself once the server
 * lifts the freeze.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useCard } from '../../stores/card';
import { receiptFreezeNote } from '../purchases/receiptFreezeText';

export function ReceiptFreezeBanner() {
  const balance = useCard((s) => s.balance);
  if (!balance?.receiptFreeze) return null;
  const note = receiptFreezeNote(balance.receiptFreeze.overdue, balance.freezeReason);
  return (
    <Alert
      color="red"
      variant="light"
      title={note.title}
      role="alert"
      data-testid="receipt-freeze-banner"
      // Mantine's light red title is too faint for AA; a dark red reads.
      styles={{ title: { color: 'var(--mantine-color-red-9)' } }}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dark" style={{ flex: '1 1 260px', overflowWrap: 'anywhere' }}>
          {note.text}
        </Text>
        {note.uploadFor ? (
          <Button
            component={Link}
            to={`/dashboard/purchasehistory?upload=${encodeURIComponent(note.uploadFor.purchaseId)}`}
            color="red.9"
            size="sm"
          >
            Upload receipt
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
