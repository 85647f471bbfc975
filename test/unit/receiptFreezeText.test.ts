/** What the employee is told about a card frozen for missing receipts (web/src/features/purchases/receiptFreezeText.ts). */
import { describe, expect, it } from 'vitest';
import { receiptFreezeWarning, receiptsOverdueText } from '../../web/src/features/employees/employeeText';
import {
  receiptFreezeNote,
  receiptUploadedMessage,
} from '../../web/src/features/purchases/receiptFreezeText';

const powells = {
  purchaseId: 'ipi_1',
  title: null,
  merchant: 'Powell’s Books',
  amountCents: 649,
  date: '2026-11-25T15:00:00.000Z',
  dueDate: '2026-12-03',
};
const audible = {
  ...powells,
  purchaseId: 'ipi_2',
  title: 'Atomic Habits',
  merchant: 'Audible',
  amountCents: 399,
};

describe('the receipt freeze banner', () => {
  it('names the overdue purchase, its due day, and that the card works again at once', () => {
    expect(receiptFreezeNote([powells], 'missingReceipt')).toEqual({
      title: 'Your card is frozen: a receipt is overdue',
      text: 'Upload the receipt for Powell’s Books, $6.49 on 11/25/2026 (due 12/03/2026) and your card works again at once.',
      uploadFor: powells,
    });
  });

  it('names every overdue purchase, by title where given', () => {
    const note = receiptFreezeNote([powells, audible], 'missingReceipt');
    expect(note.title).toBe('Your card is frozen: receipts are overdue');
    expect(note.text).toBe(
      'Upload the receipts for Powell’s Books, $6.49 on 11/25/2026; Atomic Habits, $3.99 on 11/25/2026 and your card works again at once.',
    );
    expect(note.uploadFor).toBe(powells);
  });

  it.each([
    ['manager', 'Your manager has also frozen it'],
    ['dormant', 'also frozen after 13 months without a purchase'],
  ] as const)('never promises the card back when a %s freeze is on too', (reason, says) => {
    const note = receiptFreezeNote([powells], reason);
    expect(note.text).toContain(says);
    expect(note.text).not.toContain('works again');
  });
});

describe('after an upload', () => {
  it.each([
    ['active', 'Your card is active again.'],
    ['stillOverdue', 'Your card stays frozen until your other overdue receipts are in.'],
    [
      'stillFrozen',
      'Your receipts are all in, but your card stays frozen for another reason: see your card.',
    ],
    ['notFrozenForReceipts', 'Receipt uploaded.'],
  ] as const)('says what the server did to the card (%s)', (card, message) => {
    expect(receiptUploadedMessage(card).message).toBe(message);
  });
});

describe("the manager's roster", () => {
  const frozen = (...freezeReasons: ('manager' | 'missingReceipt' | 'dormant')[]) => ({
    cardStatus: 'inactive' as const,
    freezeReasons,
  });

  it.each([
    // The receipt freeze alone lifts itself once the receipts are in.
    [1, frozen('missingReceipt'), '1 receipt overdue: card frozen until it is in'],
    [2, frozen('missingReceipt'), '2 receipts overdue: card frozen until they are in'],
    // A manager's (or dormancy) freeze stays after the receipts are in: a manager activates it.
    [
      1,
      frozen('manager', 'missingReceipt'),
      '1 receipt overdue: card frozen until it is in and a manager activates it',
    ],
    [
      2,
      frozen('missingReceipt', 'manager'),
      '2 receipts overdue: card frozen until they are in and a manager activates it',
    ],
    [
      1,
      frozen('dormant', 'missingReceipt'),
      '1 receipt overdue: card frozen until it is in and a manager activates it',
    ],
    // Overdue since midnight, before the morning's check froze it for them: frozen only by the manager.
    [1, frozen('manager'), '1 receipt overdue: card frozen by a manager'],
    [1, frozen('dormant'), '1 receipt overdue: card frozen after 13 months without a purchase'],
    // Not frozen (or a manager activated it), or frozen for no recorded reason: no claim about the card.
    [1, { cardStatus: 'active' as const, freezeReasons: [] }, '1 receipt overdue'],
    [1, frozen(), '1 receipt overdue'],
  ] as const)('%i overdue, card %o: %s', (count, card, text) => {
    expect(receiptsOverdueText(count, { ...card, freezeReasons: [...card.freezeReasons] })).toBe(text);
  });
});

describe("the Activate dialogs' warning", () => {
  const single =
    'This card was frozen because a receipt is overdue. Activating it lifts the freeze for now, but the next daily receipt check (each morning, New York time) freezes it again until Sam Late uploads the overdue receipt. Once it is in, the card unfreezes by itself.';

  it("one person's dialog: this card, and when it is frozen again", () => {
    expect(receiptFreezeWarning(['Sam Late'], 'this')).toBe(single);
  });

  it('says how many when one person has several overdue', () => {
    expect(receiptFreezeWarning(['Sam Late'], 'this', 2)).toBe(
      'This card was frozen because 2 receipts are overdue. Activating it lifts the freeze for now, but the next daily receipt check (each morning, New York time) freezes it again until Sam Late uploads the overdue receipts. Once they are in, the card unfreezes by itself.',
    );
  });

  it('bulk Activate names whose card, in the same words', () => {
    expect(receiptFreezeWarning(['Sam Late'], 'named')).toBe(single.replace('This card', "Sam Late's card"));
  });

  it('bulk Activate names every such card', () => {
    expect(receiptFreezeWarning(['Sam Late', 'Ana Costa', 'Bo Li'], 'named')).toBe(
      'The cards of Sam Late, Ana Costa and Bo Li were frozen because a receipt is overdue. Activating them lifts the freeze for now, but the next daily receipt check (each morning, New York time) freezes each again until its holder uploads the overdue receipt. Once it is in, that card unfreezes by itself.',
    );
  });
});
