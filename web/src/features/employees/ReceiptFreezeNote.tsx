/**
 * The warning both Activate dialogs show for a card frozen for an overdue
 * receipt (docs/decisions.md "Receipt deadline"): activating lifts the freeze
 * only until the next daily receipt check.
 */
import { Alert, Text } from '@mantine/core';
import { TEXT_ON_LIGHT_YELLOW } from '../../components/contrast';
import { receiptFreezeWarning } from './employeeText';

export function ReceiptFreezeNote({
  names,
  whose,
  overdue = 1,
}: {
  names: readonly string[];
  whose: 'this' | 'named';
  /** With one name: how many of their receipts are overdue. */
  overdue?: number;
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title={names.length > 1 || overdue > 1 ? 'Receipts are overdue' : 'A receipt is overdue'}
      data-testid="receipt-freeze-note"
      styles={{ title: { color: TEXT_ON_LIGHT_YELLOW } }}
    >
      <Text size="sm" c="dark">
        {receiptFreezeWarning(names, whose, overdue)}
      </Text>
    </Alert>
  );
}
