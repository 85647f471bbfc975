import {
  DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS,
  DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS,
  dailyLimitCents,
  limitDay,
  limitExceededMessage,
} from '@shared/domain/moneyLimits';
import { describe, expect, it } from 'vitest';

describe('money velocity limits', () => {
  it('names the limit in dollars and what is left today, word for word as docs/api.md', () => {
    expect(limitExceededMessage('deposit', DEFAULT_DAILY_DEPOSIT_LIMIT_CENTS, 940_000)).toBe(
      "This would exceed your team's daily deposit limit of $20,000.00. $9,400.00 of it is left today.",
    );
    expect(limitExceededMessage('redemption', DEFAULT_DAILY_REDEMPTION_LIMIT_CENTS, 0)).toBe(
      "This would exceed your team's daily redemption limit of $10,000.00. None of it is left today; it starts again at 00:00 UTC.",
    );
  });

  it("uses the team's own limit when operations set one, else the default", () => {
    expect(dailyLimitCents('deposit', {})).toBe(2_000_000);
    expect(dailyLimitCents('deposit', { dailyDepositLimitCents: 5000 })).toBe(5000);
    expect(dailyLimitCents('deposit', { dailyDepositLimitCents: 0 })).toBe(0);
    expect(dailyLimitCents('redemption', { dailyDepositLimitCents: 5000 })).toBe(1_000_000);
    // Anything but whole, non-negative cents is ignored rather than trusted.
    for (const bad of [-1, 1.5, '5000', null, Number.NaN])
      expect(dailyLimitCents('deposit', { dailyDepositLimitCents: bad })).toBe(2_000_000);
  });

  it('counts by UTC day', () => {
    expect(limitDay(new Date('2026-11-25T23:59:59Z'))).toBe('2026-11-25');
    expect(limitDay(new Date('2026-11-26T00:00:00Z'))).toBe('2026-11-26');
  });
});
