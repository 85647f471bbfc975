import { describe, expect, it } from 'vitest';
import { delayAfter, THROTTLE } from '../../lambdas/src/services/accounts';

describe('sign-in delays after failures', () => {
  it('costs nothing within the free failures', () => {
    for (let n = 0; n <= THROTTLE.address.free; n++) expect(delayAfter(n, THROTTLE.address)).toBe(0);
  });

  it('doubles with each failure beyond them', () => {
    const { free } = THROTTLE.address;
    expect([1, 2, 3, 4].map((k) => delayAfter(free + k, THROTTLE.address))).toEqual([2, 4, 8, 16]);
  });

  it('never locks an address for more than a minute, however many failures', () => {
    expect(delayAfter(1_000_000, THROTTLE.address)).toBe(60);
  });

  it('slows one source up to 15 minutes', () => {
    expect(delayAfter(1_000_000, THROTTLE.source)).toBe(15 * 60);
    expect(delayAfter(THROTTLE.source.free, THROTTLE.source)).toBe(0);
  });
});
