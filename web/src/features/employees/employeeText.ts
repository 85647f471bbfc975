/** How the employees tables word a person's state (spec §3: card status shown as pending if absent). */
import type { EmployeeRow } from './employeesStore';

export const statusLabel: Record<EmployeeRow['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  paused: 'Paused',
  deleted: 'Deleted',
};

export const cardStatusLabel: Record<EmployeeRow['cardStatus'], string> = {
  active: 'Active',
  inactive: 'Inactive',
  pending: 'Pending',
  canceled: 'Canceled',
};

/**
 * A card's state as the manager needs it: a card frozen because a receipt is
 * overdue says so, since activating it only lasts until the next daily check
 * (decisions.md, "Receipt deadline").
 */
export function cardStateText(row: Pick<EmployeeRow, 'cardStatus' | 'freezeReasons'>): string {
  if (row.cardStatus === 'inactive' && row.freezeReasons.includes('missingReceipt'))
    return 'Frozen: receipt overdue';
  return cardStatusLabel[row.cardStatus];
}

/**
 * Overdue receipts freeze the card (docs/decisions.md "Receipt deadline"): the
 * roster names them, and says the card waits for them while it is frozen.
 */
export function receiptsOverdueText(count: number, cardFrozen: boolean): string {
  const what = count === 1 ? '1 receipt overdue' : `${count} receipts overdue`;
  if (!cardFrozen) return what;
  return `${what}: card frozen until ${count === 1 ? 'it is' : 'they are'} in`;
}
