/**
 * The manager's payments history: what the team's card on file was charged,
 * and what was refunded to it, read from the team's journal (docs/ledger.md).
 * Only entries with an `external:<team>` leg touch the card: a negative leg is
 * money a charge took (funding, deposit; `references.charge` names the
 * charge), a positive one money a redemption gave back (its `refunds`).
 *
 * One row per thing the manager did or was billed for: the legs of one charge
 * are one row (a month's renewal credits every member from one charge), a
 * deposit request is one row (Stripe charges each person on their own, so the
 * row says how many charges it was), a redemption or the closing refund one
 * row with its fee. The charged rows less the refunded rows equal what Stripe
 * charged less what it refunded (test/integration/payments.test.ts).
 */
import type { Posting } from './ledger';
import { formatCents } from './money';
import { monthInWords } from './monthWords';

/** What of a journal entry the rows are built from. */
export type PaymentEntry = Pick<Posting, 'entryId' | 'kind' | 'legs' | 'references' | 'refunds'> & {
  postedAt: string;
};

export type PaymentKind = 'monthly' | 'joining' | 'deposit' | 'redemption' | 'closing' | 'other';

export interface PaymentCard {
  brand: string;
  last4: string;
}

export interface PaymentRow {
  /** Stable and unique: the charge id, the deposit request, or the redemption's entry id. */
  id: string;
  kind: PaymentKind;
  /** `charge`: the card paid us; `refund`: money back to the card. */
  direction: 'charge' | 'refund';
  /** When the ledger first recorded it (ISO). */
  date: string;
  /** Plain words: "Monthly budgets for December 2026, 3 employees". */
  description: string;
  /** Always positive: charged, or refunded, per `direction`. */
  amountCents: number;
  /** The people it funded, or whose money it returned (0 for the closing refund: the whole team's). */
  people: number;
  /** The redemption fee kept from a refund. */
  feeCents?: number;
  /** Said when one row is several card charges or refunds ("2 charges of $50.00"). */
  note?: string;
  /** The card charged or refunded, when the ledger recorded it. */
  card?: PaymentCard;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function externalCents(entry: PaymentEntry): number {
  return entry.legs.filter((l) => l.account.startsWith('external:')).reduce((s, l) => s + l.amountCents, 0);
}

function cardOf(entry: PaymentEntry): PaymentCard | undefined {
  const brand = entry.references?.cardBrand;
  const last4 = entry.references?.cardLast4;
  return brand && last4 ? { brand, last4 } : undefined;
}

/** The person an entry credited (`card:<user>`) or whose pooled money it returned (`references.user`). */
function personOf(entry: PaymentEntry): string | undefined {
  const card = entry.legs.find((l) => l.account.startsWith('card:'));
  return card ? card.account.slice('card:'.length) : entry.references?.user;
}

interface ChargeGroup {
  id: string;
  kind: PaymentKind;
  date: string;
  cents: number;
  people: Set<string>;
  /** Cents per Stripe charge in the group. */
  charges: Map<string, number>;
  month?: string;
  card?: PaymentCard;
  /** The fund request a deposit approved (its title). */
  request?: string;
}

/** Which row a charged entry belongs to: one per charge, or per deposit request. */
function chargeGroup(
  entry: PaymentEntry,
  chargeId: string,
): { id: string; kind: PaymentKind; month?: string } {
  const parts = entry.entryId.split('#');
  if (parts[0] === 'FUNDING') return { id: chargeId, kind: 'monthly', month: parts[3] };
  if (parts[0] === 'JOIN') return { id: chargeId, kind: 'joining' };
  // DEPOSIT#<request key>#<user>: one row per request, however many people it charged.
  if (parts[0] === 'DEPOSIT' && parts.length === 3) return { id: `DEPOSIT#${parts[1]}`, kind: 'deposit' };
  return { id: chargeId, kind: 'other' };
}

function monthWords(month: string | undefined): string | undefined {
  try {
    return month ? monthInWords(month) : undefined;
  } catch {
    return undefined;
  }
}

function chargeWords(group: ChargeGroup, nameOf: (userId: string) => string): string {
  const people = [...group.people];
  const count = plural(people.length, 'employee', 'employees');
  switch (group.kind) {
    case 'monthly': {
      const month = monthWords(group.month);
      return month ? `Monthly budgets for ${month}, ${count}` : `Monthly budgets, ${count}`;
    }
    case 'joining':
      return `Joining: ${people.map(nameOf).join(', ')}`;
    case 'deposit':
      if (people.length === 1 && group.request)
        return `Extra deposit: ${nameOf(people[0] as string)}, requested: ${group.request}`;
      return people.length === 1
        ? `Extra deposit: ${nameOf(people[0] as string)}`
        : `Extra deposit, ${count}`;
    default:
      return `Budgets, ${count}`;
  }
}

/** "2 charges of $50.00" when a row is several charges of one amount, "2 charges" otherwise. */
function chargesNote(charges: Map<string, number>): string | undefined {
  if (charges.size < 2) return undefined;
  const amounts = new Set(charges.values());
  const each = amounts.size === 1 ? ` of ${formatCents([...amounts][0] as number)}` : '';
  return `${charges.size} charges${each}`;
}

/** Newest first; the same date by id, so pages never overlap or skip. */
export function comparePaymentRows(a: Pick<PaymentRow, 'date' | 'id'>, b: Pick<PaymentRow, 'date' | 'id'>) {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The payment rows of a team's journal (any order), newest first. `nameOf`
 * names a person by user id (the route reads the team's people once).
 */
export function paymentRows(entries: PaymentEntry[], nameOf: (userId: string) => string): PaymentRow[] {
  const groups = new Map<string, ChargeGroup>();
  const cardByCharge = new Map<string, PaymentCard>();
  const refunds: PaymentRow[] = [];
  const refundEntries: PaymentEntry[] = [];
  for (const entry of entries) {
    const cents = externalCents(entry);
    if (cents < 0) {
      const chargeId = entry.references?.charge ?? entry.entryId;
      const { id, kind, month } = chargeGroup(entry, chargeId);
      const group = groups.get(id) ?? {
        id,
        kind,
        date: entry.postedAt,
        cents: 0,
        people: new Set<string>(),
        charges: new Map<string, number>(),
        month,
        ...(entry.references?.request ? { request: entry.references.request } : {}),
      };
      group.cents += -cents;
      if (entry.postedAt < group.date) group.date = entry.postedAt;
      const person = personOf(entry);
      if (person) group.people.add(person);
      group.charges.set(chargeId, (group.charges.get(chargeId) ?? 0) - cents);
      const card = cardOf(entry);
      if (card) {
        group.card ??= card;
        cardByCharge.set(chargeId, card);
      }
      groups.set(id, group);
    } else if (cents > 0) {
      refundEntries.push(entry);
    }
  }
  for (const entry of refundEntries) {
    const fee = entry.legs
      .filter((l) => l.account.startsWith('revenue:'))
      .reduce((s, l) => s + l.amountCents, 0);
    const closing = entry.entryId.startsWith('CLOSE#');
    const person = personOf(entry);
    const parts = entry.refunds ?? [];
    const what = closing
      ? 'Refund of the balance left on closing'
      : person
        ? `Refund of redeemed balance: ${nameOf(person)}`
        : 'Refund of redeemed balance';
    const card = parts.map((p) => cardByCharge.get(p.chargeId)).find((c) => c !== undefined);
    refunds.push({
      id: entry.entryId,
      kind: closing ? 'closing' : 'redemption',
      direction: 'refund',
      date: entry.postedAt,
      description: fee > 0 ? `${what} (fee ${formatCents(fee)})` : what,
      amountCents: externalCents(entry),
      people: closing || !person ? 0 : 1,
      ...(fee > 0 ? { feeCents: fee } : {}),
      // Stripe refunds a charge at most what it charged, so one redemption can come back as several
      // refunds on the card's statement: say so, or the lines there look like a mistake.
      ...(parts.length > 1
        ? { note: `${parts.length} refunds to the card, one per charge it came from` }
        : {}),
      ...(card ? { card } : {}),
    });
  }
  const charges: PaymentRow[] = [...groups.values()].map((group) => {
    const note = chargesNote(group.charges);
    return {
      id: group.id,
      kind: group.kind,
      direction: 'charge',
      date: group.date,
      description: chargeWords(group, nameOf),
      amountCents: group.cents,
      people: group.people.size,
      ...(note ? { note } : {}),
      ...(group.card ? { card: group.card } : {}),
    };
  });
  return [...charges, ...refunds].sort(comparePaymentRows);
}
