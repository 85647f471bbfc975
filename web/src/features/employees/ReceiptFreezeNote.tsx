/**
 * The warning both Activate dialogs show for a card frozen for an overdue
 * receipt (docs/decisions.md "Receipt deadline"): activating lifts the freeze
 * only until the next daily receipt check.
 */
import { Alert, Text } from '@mantine/core';
import { receiptFreezeWarning } from './employeeText';

export function ReceiptFreezeNote({ names, whose }: { names: readonly string[]; whose: 'this' | 'named' }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title={names.length > 1 ? 'Receipts are overdue' : 'A receipt is overdue'}
      data-testid="receipt-freeze-note"
      // The light variant's yellow title is too faint on yellow; a dark brown reads at AA.
      styles={{ title: { color: '#713f12' } }}
    >
      <Text size="sm" c="dark">
        {receiptFreezeWarning(names, whose)}
      </Text>
    </Alert>
  );
}
