import { describe, expect, it } from 'vitest';
import { keys, monthOf } from '../../lambdas/src/data/keys';
import { createTableInput, tableSpec } from '../../lambdas/src/data/tableSpec';

describe('table spec', () => {
  it('creates the key schema and every index from one description', () => {
    const input = createTableInput('t');
    expect(input.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(input.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(
      tableSpec.globalIndexes.map((i) => i.name),
    );
    const defined = input.AttributeDefinitions.map((a) => a.AttributeName).sort();
    expect(defined).toEqual([
      'gsi1pk',
      'gsi1sk',
      'gsi2pk',
      'gsi2sk',
      'gsi3pk',
      'gsi3sk',
      'gsi4pk',
      'gsi4sk',
      'pk',
      'sk',
    ]);
  });
});

describe('keys', () => {
  it('gives different entities different partitions even for the same id', () => {
    const id = '01HZX';
    const pks = [
      keys.team(id),
      keys.user(id),
      keys.account(id),
      keys.journal(id),
      keys.purchase(id),
      keys.message(id),
    ];
    expect(new Set(pks.map((k) => k.pk)).size).toBe(pks.length);
  });

  it('orders an account statement by entry id, then leg', () => {
    const a = keys.accountEntry('acc', '01A', 0).sk;
    const b = keys.accountEntry('acc', '01A', 1).sk;
    const c = keys.accountEntry('acc', '01B', 0).sk;
    expect([c, b, a].sort()).toEqual([a, b, c]);
  });

  it('buckets time-partitioned lists by UTC month', () => {
    expect(monthOf('2026-11-21T22:00:00.000Z')).toBe('2026-11');
    expect(keys.leadByMonth('2026-11-21T22:00:00.000Z', 'a@b.co').gsi1pk).toBe('LEADS#2026-11');
  });

  it('lists a purchase awaiting its receipt under its team, by person then time', () => {
    const key = keys.purchaseAwaitingReceipt('team1', 'user1', '2026-03-02T15:00:00.000Z', 'ipi_1');
    expect(key).toEqual({ gsi3pk: 'RECEIPTDUE#team1', gsi3sk: 'user1#2026-03-02T15:00:00.000Z#ipi_1' });
    expect(key.gsi3pk).toBe(keys.receiptsDueOfTeam('team1'));
    expect(key.gsi3sk.startsWith(keys.receiptsDueOfUser('user1'))).toBe(true);
    // One person's prefix never takes in another's whose id starts the same way.
    expect(
      keys
        .purchaseAwaitingReceipt('team1', 'user10', '2026-03-02T15:00:00.000Z', 'ipi_2')
        .gsi3sk.startsWith(keys.receiptsDueOfUser('user1')),
    ).toBe(false);
  });

  it('windows rate limits per bucket and client', () => {
    expect(keys.rateWindow('joinWaitlist', '1.2.3.4', 600)).toEqual({
      pk: 'RATE#joinWaitlist#1.2.3.4',
      sk: 'WINDOW#600',
    });
  });
});
