import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newId } from '../../lambdas/src/adapters/clock';

describe('newId', () => {
  it('sorts ids made for the same millisecond in the order they were made', () => {
    const at = new Date('2026-11-25T12:00:00.000Z');
    const ids = Array.from({ length: 200 }, () => newId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(decodeTime(id)).toBe(at.getTime());
  });

  it('keeps each id at its own time, an earlier one after a later one included', () => {
    const later = newId(new Date('2026-11-25T12:00:01.000Z'));
    const earlier = newId(new Date('2026-11-25T12:00:00.500Z'));
    expect(decodeTime(later)).toBe(Date.parse('2026-11-25T12:00:01.000Z'));
    expect(decodeTime(earlier)).toBe(Date.parse('2026-11-25T12:00:00.500Z'));
    expect(earlier < later).toBe(true);
  });
});
