/**
 * Bulk Activate, when the selection holds a card frozen for an overdue receipt:
 * the one-person Activate dialog warns that the next daily receipt check freezes
 * such a card again, so the bulk button asks first too, naming whose cards
 * (docs/decisions.md "Receipt deadline"). Without such a card it stays one click.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { namesOf, People, Shell } from './EmployeeDialogs';
import { type EmployeeRow, fullName } from './employeesStore';
import { ReceiptFreezeNote } from './ReceiptFreezeNote';
import { setCardsStatus } from './setCardsStatus';

export function ActivateCardsDialog(props: {
  /** Every card the activation switches. */
  people: EmployeeRow[];
  /** Of them, those frozen for an overdue receipt. */
  receiptFrozen: EmployeeRow[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { people, receiptFrozen, onClose, onDone } = props;
  const [busy, setBusy] = useState(false);
  const one = people.length === 1;
  async function confirm() {
    setBusy(true);
    const userIds = people.map((p) => p.userId);
    if (await setCardsStatus(userIds, 'active')) onDone();
    else setBusy(false);
  }
  return (
    <Shell
      opened
      title={
        one ? `Activate ${fullName(people[0] as EmployeeRow)}'s card?` : `Activate ${people.length} cards?`
      }
      busy={busy}
      onClose={onClose}
    >
      <Stack gap="md">
        {/* A long unbroken name wraps instead of running out of the dialog. */}
        <Text style={{ overflowWrap: 'anywhere' }}>
          {namesOf(people)} will be able to pay with {one ? 'the card' : 'their cards'} again
          {receiptFrozen.length === people.length ? ' until the next receipt check' : ''}.
        </Text>
        {people.length > 3 ? <People rows={people} /> : null}
        <ReceiptFreezeNote
          names={receiptFrozen.map(fullName)}
          whose="named"
          overdue={receiptFrozen.length === 1 ? receiptFrozen[0]?.receiptsOverdue : undefined}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void confirm()}>
            {one ? 'Activate card' : `Activate ${people.length} cards`}
          </Button>
        </Group>
      </Stack>
    </Shell>
  );
}
