/** A budget month in words (shared/src/domain/monthWords.ts): what the renewal posts and how older entries read. */

import {
  descriptionInWords,
  monthInWords,
  monthlyChargeDescription,
  monthlyCreditDescription,
} from '@shared/domain/monthWords';
import { describe, expect, it } from 'vitest';

describe('a budget month in words', () => {
  it('names the month and the year', () => {
    expect(monthInWords('2026-12')).toBe('December 2026');
    expect(monthInWords('2027-01')).toBe('January 2027');
    expect(() => monthInWords('2026-13')).toThrow('not a month');
    expect(() => monthInWords('December')).toThrow('not a month');
  });

  it('is how the renewal words its credit and its charge, one employee or several', () => {
    expect(monthlyCreditDescription('2026-12')).toBe('Learning budget for December 2026');
    expect(monthlyChargeDescription('2026-12', 1)).toBe('Learning budgets for December 2026 (1 employee)');
    expect(monthlyChargeDescription('2026-12', 3)).toBe('Learning budgets for December 2026 (3 employees)');
  });

  it('reads an older entry’s raw month in words and leaves every other description as written', () => {
    expect(descriptionInWords('Learning budget for 2026-12')).toBe('Learning budget for December 2026');
    expect(descriptionInWords('Learning budgets for 2026-12 (3 employees)')).toBe(
      'Learning budgets for December 2026 (3 employees)',
    );
    expect(descriptionInWords('Learning budget for December 2026')).toBe('Learning budget for December 2026');
    // A person's name, not a month: a joining credit.
    expect(descriptionInWords('Learning budget for Ada Byron')).toBe('Learning budget for Ada Byron');
    expect(descriptionInWords('Purchase at 2026-12 Books')).toBe('Purchase at 2026-12 Books');
    expect(descriptionInWords('Learning budget for 2026-13')).toBe('Learning budget for 2026-13');
  });
});
