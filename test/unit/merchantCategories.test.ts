/** Merchant categories in plain words (shared/src/domain/merchantCategories.ts). */

import { hasCategoryName, merchantCategoryName } from '@shared/domain/merchantCategories';
import { decidePurchase, LEARNING_CATEGORIES, MERCHANT_KINDS } from '@shared/domain/spendPolicy';
import { describe, expect, it } from 'vitest';
import { merchantCategories as checkoutCategories } from '../../infra/local/stripe/categories';

describe('a merchant category in words', () => {
  it('reads as people say it, not as Stripe spells it', () => {
    expect(merchantCategoryName('eating_places_restaurants')).toBe('Restaurants');
    expect(merchantCategoryName('book_stores')).toBe('Bookstores');
    expect(merchantCategoryName('betting_casino_gambling')).toBe('Betting and casinos');
  });

  it('names every category the product names: learning, the check’s choices, the sandbox checkout’s', () => {
    const named = [
      ...LEARNING_CATEGORIES,
      ...MERCHANT_KINDS.map((k) => k.category),
      ...checkoutCategories.map((c) => c.name),
    ];
    expect(named.filter((c) => !hasCategoryName(c))).toEqual([]);
  });

  it('reads any other category as words in sentence case, and a key of every object as its words', () => {
    expect(merchantCategoryName('miscellaneous_general_merchandise')).toBe(
      'Miscellaneous general merchandise',
    );
    expect(merchantCategoryName('constructor')).toBe('Constructor');
  });

  it('is what the decline of a restaurant says, with or without the merchant’s name', () => {
    const restaurant = { amountCents: 500, currency: 'usd', merchantCategory: 'eating_places_restaurants' };
    expect(decidePurchase(restaurant, { status: 'active' }, { status: 'active' }, 2500)).toMatchObject({
      reason: 'A merchant of this kind (Restaurants) is not a learning merchant.',
    });
    expect(
      decidePurchase(
        { ...restaurant, merchantName: 'Noodle Bar' },
        { status: 'active' },
        { status: 'active' },
        2500,
      ),
    ).toMatchObject({ reason: 'Noodle Bar (Restaurants) is not a learning merchant.' });
  });
});
