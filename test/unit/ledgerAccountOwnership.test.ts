/**
 * Issue 12: no ledger item is written by two teams' traffic. Every posting a
 * team's money movements make names only accounts of that team (`pool`,
 * `external`, `network`, `revenue` keyed by the team id) or of its people
 * (`card`, `hold`, `debt` keyed by their user id). Checked over every posting
 * builder with random teams, people and amounts: two teams' postings never
 * share an account.
 */

import {
  accountSplit,
  authorizationHold,
  capture,
  debtRepayment,
  fromPool,
  funding,
  LEGACY_NETWORK_ACCOUNT,
  LEGACY_REVENUE_ACCOUNT,
  merchantRefund,
  networkAccount,
  type Posting,
  reallocation,
  redemption,
  redemptionFee,
  release,
  toPool,
} from '@shared/domain/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const cents = fc.integer({ min: 1, max: 1_000_000 });

/** Every kind of posting one team's traffic makes, for its people. */
function teamPostings(teamId: string, people: string[], amount: number, n: number): Posting[] {
  const person = people[n % people.length] as string;
  const id = (kind: string) => `${kind}#${teamId}#${n}`;
  const redeemed = amount + 600;
  const net = redeemed - redemptionFee(redeemed);
  return [
    funding({
      entryId: id('F'),
      teamId,
      userId: person,
      amountCents: amount,
      description: 'd',
      chargeId: 'ch',
    }),
    funding({
      entryId: id('D'),
      teamId,
      userId: person,
      amountCents: amount,
      description: 'd',
      chargeId: 'ch',
      kind: 'deposit',
    }),
    authorizationHold({
      authorizationId: id('A'),
      teamId,
      userId: person,
      amountCents: amount,
      merchant: 'm',
    }),
    authorizationHold({
      authorizationId: id('A'),
      increment: 1,
      teamId,
      userId: person,
      amountCents: amount,
      merchant: 'm',
    }),
    capture({
      entryId: id('C'),
      teamId,
      userId: person,
      capturedCents: amount + n,
      heldCents: amount,
      merchant: 'm',
      transactionId: 'ipi',
    }),
    capture({
      entryId: id('C0'),
      teamId,
      userId: person,
      capturedCents: amount,
      heldCents: 0,
      merchant: 'm',
      transactionId: 'ipi',
    }),
    release({ entryId: id('R'), teamId, userId: person, amountCents: amount, reason: 'r' }),
    merchantRefund({
      entryId: id('M'),
      teamId,
      userId: person,
      amountCents: amount,
      merchant: 'm',
      transactionId: 'ipi',
    }),
    toPool({ entryId: id('P'), teamId, userId: person, amountCents: amount, reason: 'removed' }),
    fromPool({ entryId: id('RS'), teamId, userId: person, amountCents: amount }),
    reallocation({ entryId: id('RA'), teamId, amountCents: amount, receiverIds: people }),
    redemption({
      entryId: id('X'),
      teamId,
      amountCents: redeemed,
      refunds: [{ chargeId: 'ch', refundId: 're', amountCents: net }],
    }),
    debtRepayment({ entryId: id('DR'), teamId, userId: person, amountCents: amount }),
  ];
}

/** The team or person an account belongs to, by its id's prefix. */
function ownerOf(account: string): { team: string } | { person: string } {
  const [prefix, id] = [account.slice(0, account.indexOf(':')), account.slice(account.indexOf(':') + 1)];
  if (['pool', 'external', 'network', 'revenue'].includes(prefix)) return { team: id };
  if (['card', 'hold', 'debt'].includes(prefix)) return { person: id };
  throw new Error(`unknown account ${account}`);
}

const teamArb = fc.record({
  teamId: fc.stringMatching(/^[0-9A-Z]{6,26}$/),
  people: fc.uniqueArray(fc.stringMatching(/^[0-9A-Z]{6,26}$/), { minLength: 1, maxLength: 5 }),
});

describe('no ledger account is shared by two teams', () => {
  it('every posting of a team names only its own and its people’s accounts', () => {
    fc.assert(
      fc.property(teamArb, cents, fc.nat(50), ({ teamId, people }, amount, n) => {
        for (const posting of teamPostings(teamId, people, amount, n)) {
          for (const leg of posting.legs) {
            const owner = ownerOf(leg.account);
            if ('team' in owner) expect(owner.team, `${posting.kind}: ${leg.account}`).toBe(teamId);
            else expect(people, `${posting.kind}: ${leg.account}`).toContain(owner.person);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('two teams’ postings never write the same account', () => {
    fc.assert(
      fc.property(teamArb, teamArb, cents, fc.nat(50), (a, b, amount, n) => {
        // Two teams: different ids, and nobody belongs to both.
        fc.pre(a.teamId !== b.teamId && !a.people.some((p) => b.people.includes(p)));
        const accounts = (t: typeof a) =>
          new Set(teamPostings(t.teamId, t.people, amount, n).flatMap((p) => p.legs.map((l) => l.account)));
        const first = accounts(a);
        const shared = [...accounts(b)].filter((account) => first.has(account));
        expect(shared).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('the retired shared accounts appear only in the one-off move to the team’s own account', () => {
    const all = teamPostings('T1', ['u1', 'u2'], 1000, 3).flatMap((p) => p.legs.map((l) => l.account));
    expect(all).not.toContain(LEGACY_NETWORK_ACCOUNT);
    expect(all).not.toContain(LEGACY_REVENUE_ACCOUNT);
    const move = accountSplit({
      entryId: 'S',
      teamId: 'T1',
      from: LEGACY_NETWORK_ACCOUNT,
      to: networkAccount('T1'),
      amountCents: 700,
    });
    expect(move.legs).toEqual([
      { account: 'network:settlement', amountCents: -700 },
      { account: 'network:T1', amountCents: 700 },
    ]);
  });
});
