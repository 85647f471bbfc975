/** Whole-dollar fields (budgets, deposit amounts): the field's own name in every message, and money as people write it. */

import { amountDollars, budgetDollars } from '@shared/schemas/profile';
import { describe, expect, it } from 'vitest';

const message = (schema: typeof budgetDollars, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('whole dollars', () => {
  it.each([
    ['$25', 2500],
    [' 25 ', 2500],
    [0, 0],
    ['10000', 1_000_000],
  ])('%j is %i cents', (value, cents) => {
    expect(budgetDollars.parse(value)).toBe(cents);
    expect(amountDollars.parse(value)).toBe(cents);
  });

  it.each([
    ['', 'is required'],
    ['12.50', 'must be a whole number of dollars'],
    ['-5', 'must be a whole number of dollars'],
    ['10001', 'must be at most $10,000'],
  ])('%j: "... %s", naming the field', (value, words) => {
    expect(message(budgetDollars, value)).toBe(`Budget ${words}`);
    expect(message(amountDollars, value)).toBe(`Amount ${words}`);
  });
});
