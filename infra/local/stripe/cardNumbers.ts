/**
 * Card numbers: Luhn, brand, expiry parsing, and the behaviour of Stripe's
 * published test cards (https://docs.stripe.com/testing). Pure functions.
 */

/** Keeps digits only: "4242 4242-4242 4242" -> "4242424242424242". */
export function normalizePan(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  return luhnSum(number) % 10 === 0;
}

function luhnSum(number: string): number {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** The digit that makes `partial` + digit pass Luhn. */
export function luhnCheckDigit(partial: string): string {
  return String((10 - (luhnSum(`${partial}0`) % 10)) % 10);
}

export type CardBrand =
  | 'Visa'
  | 'MasterCard'
  | 'American Express'
  | 'Discover'
  | 'JCB'
  | 'Diners Club'
  | 'UnionPay'
  | 'Unknown';

/** Brand names as Stripe spells them on card objects. */
export function brandOf(number: string): CardBrand {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/.test(number)) return 'MasterCard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(number)) return 'Discover';
  if (/^35/.test(number)) return 'JCB';
  if (/^3(0[0-5]|[68])/.test(number)) return 'Diners Club';
  if (/^62/.test(number)) return 'UnionPay';
  return 'Unknown';
}

/** Charges name the network in lower case ("visa", "mastercard", "amex"). */
export function networkOf(brand: CardBrand): string {
  const map: Record<CardBrand, string> = {
    Visa: 'visa',
    MasterCard: 'mastercard',
    'American Express': 'amex',
    Discover: 'discover',
    JCB: 'jcb',
    'Diners Club': 'diners',
    UnionPay: 'unionpay',
    Unknown: 'unknown',
  };
  return map[brand];
}

export function cvcValid(cvc: string, brand: CardBrand): boolean {
  return brand === 'American Express' ? /^\d{4}$/.test(cvc) : /^\d{3,4}$/.test(cvc);
}

/** "08/29", "8/29", "08/2029", "0829" -> { month: 8, year: 2029 }. */
export function parseExpiry(input: string): { month: number; year: number } | undefined {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!match) return undefined;
  const month = Number(match[1]);
  const yearText = match[2] as string;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

/** A card is valid through the last day of its expiry month. */
export function isExpired(month: number, year: number, now: Date): boolean {
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  return year < nowYear || (year === nowYear && month < nowMonth);
}

export interface Decline {
  code: string;
  declineCode: string;
  message: string;
  param?: string;
}

export type CardBehaviour =
  | { kind: 'ok' }
  /** Declines the card check when attached to a customer and every charge. */
  | { kind: 'decline'; decline: Decline }
  /** Attaches fine (Stripe's 4000000000000341) but declines every charge. */
  | { kind: 'decline_charges'; decline: Decline };

const generic: Decline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};

const declines: Record<string, CardBehaviour> = {
  '4000000000000002': { kind: 'decline', decline: generic },
  '4000000000009995': {
    kind: 'decline',
    decline: {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
  '4000000000009987': {
    kind: 'decline',
    decline: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  },
  '4000000000009979': {
    kind: 'decline',
    decline: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  },
  '4000000000000069': {
    kind: 'decline',
    decline: {
      code: 'expired_card',
      declineCode: 'expired_card',
      message: 'Your card has expired.',
      param: 'exp_month',
    },
  },
  '4000000000000127': {
    kind: 'decline',
    decline: {
      code: 'incorrect_cvc',
      declineCode: 'incorrect_cvc',
      message: "Your card's security code is incorrect.",
      param: 'cvc',
    },
  },
  '4000000000000119': {
    kind: 'decline',
    decline: {
      code: 'processing_error',
      declineCode: 'processing_error',
      message: 'An error occurred while processing your card. Try again in a little bit.',
    },
  },
  '4000000000000341': { kind: 'decline_charges', decline: generic },
};

export function behaviourOf(number: string): CardBehaviour {
  return declines[number] ?? { kind: 'ok' };
}

/** Funding of the test cards that are not credit cards. */
export function fundingOf(number: string): 'credit' | 'debit' | 'prepaid' {
  if (['4000056655665556', '5200828282828210', '6200000000000005'].includes(number)) return 'debit';
  if (['5105105105105100', '4000009990000006'].includes(number)) return 'prepaid';
  return 'credit';
}

/**
 * Stripe's test tokens (`tok_visa`, `tok_chargeDeclined`, ...): usable from
 * server code without sending a card number. Each use makes a fresh card.
 */
export const magicTokens: Record<string, string> = {
  tok_visa: '4242424242424242',
  tok_visa_debit: '4000056655665556',
  tok_mastercard: '5555555555554444',
  tok_mastercard_debit: '5200828282828210',
  tok_amex: '378282246310005',
  tok_discover: '6011111111111117',
  tok_chargeDeclined: '4000000000000002',
  tok_chargeDeclinedInsufficientFunds: '4000000000009995',
  tok_chargeDeclinedExpiredCard: '4000000000000069',
  tok_chargeDeclinedIncorrectCvc: '4000000000000127',
  tok_chargeDeclinedProcessingError: '4000000000000119',
  tok_chargeCustomerFail: '4000000000000341',
};

/** "4000009912345678" -> "4000 0099 1234 5678" (Amex: 4-6-5). */
export function groupPan(number: string): string {
  if (brandOf(number) === 'American Express') {
    return [number.slice(0, 4), number.slice(4, 10), number.slice(10)].filter(Boolean).join(' ');
  }
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}
