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

/** Why else a card is frozen, in the roster's words (the reasons a manager's activation lifts). */
const OTHER_FREEZE_WORDS: Record<Exclude<EmployeeRow['freezeReasons'][number], 'missingReceipt'>, string> = {
  manager: 'by a manager',
  dormant: 'after 13 months without a purchase',
};

/**
 * Overdue receipts freeze the card (docs/decisions.md "Receipt deadline"): the
 * roster names them and says what the card waits for. Only the receipt freeze
 * lifts itself when they are in; a manager's or dormancy freeze stays until a
 * manager activates the card, and before the morning's check froze it for them
 * the card is frozen only for that other reason.
 */
export function receiptsOverdueText(
  count: number,
  card: Pick<EmployeeRow, 'cardStatus' | 'freezeReasons'>,
): string {
  const what = count === 1 ? '1 receipt overdue' : `${count} receipts overdue`;
  if (card.cardStatus !== 'inactive') return what;
  const until = `until ${count === 1 ? 'it is' : 'they are'} in`;
  const others = card.freezeReasons.flatMap((reason) =>
    reason === 'missingReceipt' ? [] : [OTHER_FREEZE_WORDS[reason]],
  );
  if (card.freezeReasons.includes('missingReceipt'))
    return others.length === 0
      ? `${what}: card frozen ${until}`
      : `${what}: card frozen ${until} and a manager activates it`;
  // An inactive card with no recorded reason (older data) gets no claim about why.
  return others.length === 0 ? what : `${what}: card frozen ${others.join(' and ')}`;
}

/** A sentence-ready list: "Ann, Bob and Cy". */
export function nameList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The Activate dialogs' warning for cards frozen for an overdue receipt
 * (docs/decisions.md "Receipt deadline": activating lifts every reason, and the
 * next daily run freezes the card again while the receipt is missing). The
 * one-person dialog says "This card"; the bulk one names whose, in the same words.
 */
export function receiptFreezeWarning(
  names: readonly string[],
  whose: 'this' | 'named',
  /** One person's overdue receipts: more than one is said so ('2 receipts are overdue'). */
  overdue = 1,
): string {
  const check = 'the next daily receipt check (each morning, New York time)';
  if (names.length > 1)
    return (
      `The cards of ${nameList(names)} were frozen because a receipt is overdue. Activating them lifts ` +
      `the freeze for now, but ${check} freezes each again until its holder uploads the overdue receipt. ` +
      'Once it is in, that card unfreezes by itself.'
    );
  const name = names[0] ?? '';
  const many = overdue > 1;
  return (
    `${whose === 'this' ? 'This card' : `${name}'s card`} was frozen because ${many ? `${overdue} receipts are` : 'a receipt is'} overdue. ` +
    `Activating it lifts the freeze for now, but ${check} freezes it again until ${name} uploads the ` +
    `overdue ${many ? 'receipts. Once they are' : 'receipt. Once it is'} in, the card unfreezes by itself.`
  );
}
