import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { derivedAuditId } from '../../lambdas/src/data/audit';

describe('an audit id derived from its event', () => {
  it('is a ULID of the event’s time, the same for the same event and different for another', () => {
    const at = '2026-03-10T14:00:00.000Z';
    const id = derivedAuditId(at, 'card.receiptFreeze:ic_1');
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBe(Date.parse(at));
    expect(derivedAuditId(at, 'card.receiptFreeze:ic_1')).toBe(id);
    expect(derivedAuditId(at, 'card.receiptFreeze:ic_2')).not.toBe(id);
    expect(derivedAuditId(at, 'card.receiptFreezeLifted:ic_1')).not.toBe(id);
  });

  it('sorts by time like the log’s other ids, whatever the event', () => {
    const earlier = derivedAuditId('2026-03-10T14:00:00.000Z', 'z');
    const later = derivedAuditId('2026-03-10T14:00:00.001Z', 'a');
    expect(earlier < later).toBe(true);
  });
});
