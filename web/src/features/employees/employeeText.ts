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
 * Overdue receipts freeze the card (docs/decisions.md "Receipt deadline"): the
 * roster names them, and says the card waits for them while it is frozen.
 */
export function receiptsOverdueText(count: number, cardFrozen: boolean): string {
  const what = count === 1 ? '1 receipt overdue' : `${count} receipts overdue`;
  if (!cardFrozen) return what;
  return `${what}: card frozen until ${count === 1 ? 'it is' : 'they are'} in`;
}
