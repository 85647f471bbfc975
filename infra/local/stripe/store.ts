/**
 * The emulator's state: plain Stripe-shaped objects keyed by id (insertion
 * order is creation order), plus the few private facts Stripe keeps to itself
 * (issuing card numbers and CVCs, how a test card behaves). Optionally saved
 * to a JSON file after every change, so `npm start` restarts keep customers
 * and cards. Writes go to a temporary file renamed over the old one, so a
 * crash never leaves half a file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Stripe from 'stripe';
import type { CardBehaviour } from './cardNumbers';

export type CustomerRecord = Omit<Stripe.Customer, 'sources'>;
export type ChargeRecord = Omit<Stripe.Charge, 'refunds'>;
/** Stored with the cardholder's id; rendered with the cardholder expanded, as Stripe does. */
export type IssuingCardRecord = Omit<Stripe.Issuing.Card, 'cardholder'> & { cardholder: string };
/** Stored with ids; rendered with the card and transactions expanded, as Stripe does. */
export type AuthorizationRecord = Omit<
  Stripe.Issuing.Authorization,
  'card' | 'cardholder' | 'transactions'
> & {
  card: string;
  cardholder: string | null;
  transactions: string[];
};

export interface EphemeralKeyRecord {
  id: string;
  object: 'ephemeral_key';
  associated_objects: { id: string; type: string }[];
  created: number;
  expires: number;
  livemode: false;
  secret: string;
}

export interface EventRecord {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface DeliveryRecord {
  event: string;
  type: string;
  /** Unix milliseconds. */
  at: number;
  url: string;
  status: number | null;
  outcome: 'delivered' | 'failed' | 'timeout' | 'error';
  ms: number;
  note?: string;
}

export interface IdempotencyRecord {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: string;
  /** Unix milliseconds; Stripe keeps keys for 24 hours. */
  at: number;
}

export interface State {
  version: 1;
  customers: Record<string, CustomerRecord>;
  /** Customer cards (sources) and the one-off cards of tokens, by card id. */
  cards: Record<string, Stripe.Card>;
  /** How each test card number behaves, by card id (the number itself is not kept). */
  cardBehaviours: Record<string, CardBehaviour>;
  tokens: Record<string, Stripe.Token>;
  charges: Record<string, ChargeRecord>;
  refunds: Record<string, Stripe.Refund>;
  cardholders: Record<string, Stripe.Issuing.Cardholder>;
  issuingCards: Record<string, IssuingCardRecord>;
  /** What Stripe never returns in the card object: full number and CVC. */
  issuingSecrets: Record<string, { number: string; cvc: string }>;
  ephemeralKeys: Record<string, EphemeralKeyRecord>;
  authorizations: Record<string, AuthorizationRecord>;
  transactions: Record<string, Stripe.Issuing.Transaction>;
  /** Refund transactions made against each capture, which Stripe's objects do not link. */
  refundsOf: Record<string, string[]>;
  /** Oldest first. */
  events: EventRecord[];
  deliveries: DeliveryRecord[];
  idempotency: Record<string, IdempotencyRecord>;
}

/** Past this many, the oldest events and delivery records are dropped. */
const MAX_EVENTS = 5000;

export function emptyState(): State {
  return {
    version: 1,
    customers: {},
    cards: {},
    cardBehaviours: {},
    tokens: {},
    charges: {},
    refunds: {},
    cardholders: {},
    issuingCards: {},
    issuingSecrets: {},
    ephemeralKeys: {},
    authorizations: {},
    transactions: {},
    refundsOf: {},
    events: [],
    deliveries: [],
    idempotency: {},
  };
}

export class Store {
  state: State;

  constructor(
    private readonly file: string | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.state = this.load();
  }

  private load(): State {
    if (!this.file || !existsSync(this.file)) return emptyState();
    try {
      const loaded = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<State>;
      if (loaded.version !== 1) throw new Error(`unknown version ${String(loaded.version)}`);
      // Fields added later default to empty, so an older file still loads.
      const state = { ...emptyState(), ...loaded } as State;
      this.log(
        `loaded ${Object.keys(state.customers).length} customers and ${Object.keys(state.issuingCards).length} issuing cards from ${this.file}`,
      );
      return state;
    } catch (error) {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      this.log(
        `could not read ${this.file} (${(error as Error).message}); moved it to ${aside} and started empty`,
      );
      return emptyState();
    }
  }

  save(): void {
    const { events, deliveries } = this.state;
    if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
    if (deliveries.length > MAX_EVENTS) deliveries.splice(0, deliveries.length - MAX_EVENTS);
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }

  reset(): void {
    this.state = emptyState();
    this.save();
  }
}

/** Newest first, as Stripe lists. */
export function newestFirst<T>(records: Record<string, T>): T[] {
  return Object.values(records).reverse();
}
