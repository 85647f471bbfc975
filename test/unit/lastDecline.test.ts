/** How long a decline stays on the card dialog (docs/decisions.md, "Virtual card, declines"). */

import { DECLINE_SHOWN_DAYS, isDeclineRecent } from '@shared/domain/lastDecline';
import { describe, expect, it } from 'vitest';

describe('isDeclineRecent', () => {
  const at = '2026-11-25T10:00:00.000Z';
  const after = (ms: number) => new Date(new Date(at).getTime() + ms);
  const day = 86_400_000;
  it.each([
    ['at once', 0, true],
    ['6 days on', 6 * day, true],
    ['a millisecond short of 7 days', DECLINE_SHOWN_DAYS * day - 1, true],
    ['7 days on', DECLINE_SHOWN_DAYS * day, false],
    ['a month on', 30 * day, false],
  ])('%s: %s', (_label, ms, shown) => {
    expect(isDeclineRecent(at, after(ms))).toBe(shown);
  });
});
