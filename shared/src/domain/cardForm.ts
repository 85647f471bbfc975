/**
 * The card form's rules (spec §5 "Card form", "Invite"; decisions.md
 * "Money"), pure so the browser forms and the unit tests share them. The card
 * number, expiry and CVC are checked here before anything leaves the browser;
 * the card provider checks them again when it makes the token, and only the
 * token ever reaches our API.
 */
import { isInvitableEmail, splitEmailList } from '../schemas/invitations';
import { MAX_BUDGET_DOLLARS } from '../schemas/profile';

/** spec §5, word for word. */
export const cardFormMessages = {
  businessNameRequired: 'Business name is required',
  nameRequired: 'Name is required',
  numberRequired: 'Credit card number is required',
  numberInvalid: 'Credit card number is not valid',
  expiryRequired: 'Card expiration date is required',
  expiryFormat: 'Card expiration date is invalid. Format: MM/YYYY',
  expired: 'Card is expired',
  cvcRequired: 'CVC is required',
  cvcInvalid: 'CVC is invalid',
  addressRequired: 'Address is required',
  countryRequired: 'Country is required',
  stateRequired: 'State is required',
  cityRequired: 'City is required',
  postalCodeRequired: 'Postal Code is required',
  /** Ours: the spec has no words for a malformed ZIP; the server says the same (schemas/billing.ts). */
  postalCodeInvalid: 'Postal Code must be 5 digits (or ZIP+4)',
} as const;

/** Country is fixed to US on the setup wizard (spec §5); the add-card form uses the same. */
export const CARD_COUNTRY = 'US';

/** The 50 states and DC, for the State select: code and name. */
export const US_STATES: readonly (readonly [string, string])[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

/** Digits only: people type card numbers with spaces or dashes. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** spec §5 'Credit card number is not valid': 12-19 digits (spaces and dashes allowed) passing Luhn. */
export function checkCardNumber(number: string): string | undefined {
  const digits = cardDigits(number.trim());
  if (digits === '') return cardFormMessages.numberRequired;
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return cardFormMessages.numberInvalid;
  return undefined;
}

export interface Expiry {
  month: number;
  year: number;
}

/** MM/YYYY (spec §5), month 01-12; spaces around the slash are forgiven. */
export function parseExpiry(text: string): Expiry | undefined {
  const match = /^(\d{2})\s*\/\s*(\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = Number(match[2]);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

/** A card is good through the last day of its expiry month (UTC, as the provider counts). */
export function isExpired(expiry: Expiry, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

export function checkExpiry(text: string, now: Date): string | undefined {
  if (text.trim() === '') return cardFormMessages.expiryRequired;
  const expiry = parseExpiry(text);
  if (!expiry) return cardFormMessages.expiryFormat;
  if (isExpired(expiry, now)) return cardFormMessages.expired;
  return undefined;
}

/** spec §5: 'CVC is invalid' unless digits; 3 or 4 of them (4 on American Express). */
export function checkCvc(cvc: string): string | undefined {
  const text = cvc.trim();
  if (text === '') return cardFormMessages.cvcRequired;
  if (!/^\d{3,4}$/.test(text)) return cardFormMessages.cvcInvalid;
  return undefined;
}

export function checkPostalCode(zip: string): string | undefined {
  const text = zip.trim();
  if (text === '') return cardFormMessages.postalCodeRequired;
  if (!/^\d{5}(-\d{4})?$/.test(text)) return cardFormMessages.postalCodeInvalid;
  return undefined;
}

export interface CardFormValues {
  /** Only on the setup wizard: the add-card form belongs to a team that has one. */
  businessName?: string;
  name: string;
  number: string;
  expiry: string;
  cvc: string;
  address1: string;
  address2: string;
  country: string;
  state: string;
  city: string;
  zip: string;
}

export type CardFormField = keyof CardFormValues;
export type CardFormErrors = Partial<Record<CardFormField, string>>;

/** Where the setup's body (schemas/billing.ts finalizeSetupInput) carries each field of the form. */
const SERVER_PATHS: Readonly<Record<string, CardFormField>> = {
  businessName: 'businessName',
  'billingAddress.address1': 'address1',
  'billingAddress.address2': 'address2',
  'billingAddress.city': 'city',
  'billingAddress.state': 'state',
  'billingAddress.zip': 'zip',
};

/**
 * The server's refusal (`fields` of its error envelope, keyed by path in the
 * request) as messages on the form's own fields; paths the form does not show
 * (the card token, the invitations) are left out.
 */
export function cardFormErrorsFromServer(fields: Readonly<Record<string, string>>): CardFormErrors {
  const errors: CardFormErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const field = SERVER_PATHS[path];
    if (field) errors[field] = message;
  }
  return errors;
}

/**
 * Fields that must be non-blank (after trimming) before Submit is enabled
 * (spec §5); address2 is optional. Country is fixed, so always filled.
 */
export function requiredCardFields(withBusinessName: boolean): CardFormField[] {
  return [
    ...(withBusinessName ? (['businessName'] as const) : []),
    'name',
    'number',
    'expiry',
    'cvc',
    'address1',
    'country',
    'state',
    'city',
    'zip',
  ];
}

export function cardFormComplete(values: CardFormValues, withBusinessName: boolean): boolean {
  return requiredCardFields(withBusinessName).every((field) => (values[field] ?? '').trim() !== '');
}

/** One field's message, or undefined when it is fine. */
export function checkCardField(field: CardFormField, values: CardFormValues, now: Date): string | undefined {
  const blank = (value: string | undefined) => (value ?? '').trim() === '';
  switch (field) {
    case 'businessName':
      return blank(values.businessName) ? cardFormMessages.businessNameRequired : undefined;
    case 'name':
      return blank(values.name) ? cardFormMessages.nameRequired : undefined;
    case 'number':
      return checkCardNumber(values.number);
    case 'expiry':
      return checkExpiry(values.expiry, now);
    case 'cvc':
      return checkCvc(values.cvc);
    case 'address1':
      return blank(values.address1) ? cardFormMessages.addressRequired : undefined;
    case 'address2':
      return undefined;
    case 'country':
      return blank(values.country) ? cardFormMessages.countryRequired : undefined;
    case 'state':
      return blank(values.state) ? cardFormMessages.stateRequired : undefined;
    case 'city':
      return blank(values.city) ? cardFormMessages.cityRequired : undefined;
    case 'zip':
      return checkPostalCode(values.zip);
  }
}

/** Every message of the form; empty when it may be sent to the card provider. */
export function checkCardForm(values: CardFormValues, withBusinessName: boolean, now: Date): CardFormErrors {
  const errors: CardFormErrors = {};
  const fields: CardFormField[] = [...requiredCardFields(withBusinessName), 'address2'];
  for (const field of fields) {
    const message = checkCardField(field, values, now);
    if (message) errors[field] = message;
  }
  return errors;
}

/** What the card provider's tokenizer takes (Stripe's `card[...]` parameters). */
export interface CardTokenRequest {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name: string;
  address_line1: string;
  address_line2?: string;
  address_city: string;
  address_state: string;
  address_zip: string;
  address_country: string;
}

/** The checked form as the tokenizer's parameters; call after checkCardForm found nothing. */
export function cardTokenRequest(values: CardFormValues): CardTokenRequest {
  const expiry = parseExpiry(values.expiry);
  if (!expiry) throw new Error('cardTokenRequest: check the form first');
  const address2 = values.address2.trim();
  return {
    number: cardDigits(values.number.trim()),
    exp_month: expiry.month,
    exp_year: expiry.year,
    cvc: values.cvc.trim(),
    name: values.name.trim(),
    address_line1: values.address1.trim(),
    ...(address2 ? { address_line2: address2 } : {}),
    address_city: values.city.trim(),
    address_state: values.state.trim().toUpperCase(),
    address_zip: values.zip.trim(),
    address_country: values.country.trim().toUpperCase(),
  };
}

// --- The invite step ---------------------------------------------------------------

/**
 * A whole-dollar budget as typed (spec §5: a leading `$` is accepted), or
 * undefined when it is blank or not a whole number within the limit. The
 * server's schema (schemas/profile.ts budgetDollars) applies the same rule.
 */
export function parseBudgetDollars(text: string): number | undefined {
  const stripped = text.trim().replace(/^\$\s*/, '');
  if (!/^\d+$/.test(stripped)) return undefined;
  const dollars = Number(stripped);
  return dollars <= MAX_BUDGET_DOLLARS ? dollars : undefined;
}

/** The comma list's entries, blanks skipped and repeats counted once (schemas/invitations.ts). */
export function inviteEntries(emails: string): string[] {
  return splitEmailList(emails);
}

/** The entries that can be invited: an address the server would refuse costs nothing, so is not counted. */
export function invitableEntries(emails: string): string[] {
  return inviteEntries(emails).filter(isInvitableEmail);
}

/**
 * The wizard's expected monthly total in cents: entries x budget
 * (decisions.md "Money"), counting only addresses that can be invited. Zero
 * while either is missing or not a number.
 */
export function monthlyTotalCents(emails: string, budget: string): number {
  const dollars = parseBudgetDollars(budget);
  if (dollars === undefined) return 0;
  return invitableEntries(emails).length * dollars * 100;
}

/** spec §5 "On setup, the team invite runs only when both budget and emails are non-blank." */
export function shouldInvite(emails: string, budget: string): boolean {
  return budget.trim() !== '' && inviteEntries(emails).length > 0;
}
