import { describe, expect, it } from 'vitest';
import { itemDeclineReason } from '../../web/src/features/shop/itemDecline';

const active = { availableCents: 1202, cardStatus: 'active' as const, freezeReason: null };

describe('itemDeclineReason (a shop item the card would decline, said at once)', () => {
  it("gives the card's over-balance reason when the price is above what it can spend", () => {
    expect(itemDeclineReason(active, 1299, 'educational_services')).toBe(
      '$12.99 is above your $12.02 balance. Ask your manager for more funds.',
    );
  });

  it('says nothing when the price fits, exactly or below, or the item has no price', () => {
    expect(itemDeclineReason(active, 1202, 'educational_services')).toBeNull();
    expect(itemDeclineReason(active, 999, 'book_stores')).toBeNull();
    expect(itemDeclineReason(active, undefined, 'book_stores')).toBeNull();
  });

  it('names the freeze the way a declined purchase does, whatever the price', () => {
    const frozen = { ...active, cardStatus: 'inactive' as const };
    expect(itemDeclineReason({ ...frozen, freezeReason: 'manager' }, 100, 'book_stores')).toBe(
      'Your card is frozen. Please contact your manager.',
    );
    expect(itemDeclineReason({ ...frozen, freezeReason: 'missingReceipt' }, 100, 'book_stores')).toBe(
      'Your card is frozen until your missing receipts are uploaded.',
    );
  });

  it('leaves a card still being issued to the slot, which says so', () => {
    expect(itemDeclineReason({ ...active, cardStatus: 'pending' }, 1299, 'book_stores')).toBeNull();
  });
});
