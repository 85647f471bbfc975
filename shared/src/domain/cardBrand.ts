/**
 * A card brand as people read it. Stripe's card objects say `MasterCard`, the
 * brand's old styling; the brand itself writes "Mastercard" since 2016.
 */
const BRAND_NAMES: Record<string, string> = { MasterCard: 'Mastercard' };

export function cardBrandName(brand: string): string {
  return BRAND_NAMES[brand] ?? brand;
}

/** "Visa ending in 4242": a card on file named without its number. */
export function cardOnFileName(card: { brand?: string; last4: string }): string {
  return `${card.brand ? cardBrandName(card.brand) : 'Card'} ending in ${card.last4}`;
}
