/**
 * Every key of the single table is built here, nowhere else. Each entity lists
 * its primary key and any index keys; docs/data-model.md lists the access
 * patterns they serve. Ids are ULIDs (sortable by creation time) unless the
 * entity is keyed by something natural (an e-mail, a Stripe id).
 *
 * Index use:
 *   gsi1 - "children of a team / a month": members, invitations, purchases,
 *          journal, leads and messages by month.
 *   gsi2 - "children of a user": an employee's own purchases; teams by cycle
 *          day; employees by the day dormancy next falls due.
 *   gsi3 - sparse "still to do" lists: only the items that need a job's
 *          attention carry its keys (purchases awaiting their receipt,
 *          scheduled starts and last days by day), so the job reads what is
 *          due, never a team's whole history.
 *   gsi4 - a team's employees by when their dormancy clock started (user
 *          items; removed people leave it): the quietest first, for insights.
 */

type Key = { pk: string; sk: string };

/** Month bucket `yyyy-mm` (UTC) for time-partitioned lists; avoids one hot constant partition. */
export function monthOf(isoTime: string): string {
  return isoTime.slice(0, 7);
}

/** The sort key prefix of each kind of people shard (keys.insightsPeopleShard). */
export const PEOPLE_BUCKET_PREFIX = { month: 'PEOPLE', quarter: 'PEOPLEQ', year: 'PEOPLEY' } as const;

/** How many items hold a team month's spend by person (insightsPeopleShard); fixed, readers read them all. */
export const PEOPLE_SHARDS = 8;

/** The people shard a person's spend is kept in: a stable hash of the id (FNV-1a), spread evenly. */
export function peopleShardOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PEOPLE_SHARDS;
}

export const keys = {
  // --- People and teams -----------------------------------------------------
  /** A team: its manager, billing customer, cycle anchor, status. */
  team: (teamId: string): Key => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' }),

  /** A user (manager or employee). Listed by team via gsi1. */
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userByTeam: (teamId: string, userId: string) => ({ gsi1pk: `TEAM#${teamId}`, gsi1sk: `USER#${userId}` }),

  /**
   * Dormancy: an employee listed under the UTC day the dormancy job next has to
   * look at them (a notice or the deactivation falls due). The job queries the
   * day's partition, never every team's members.
   */
  userByDormancyDay: (day: string, userId: string) => ({
    gsi2pk: `DORMANCYDUE#${day}`,
    gsi2sk: `USER#${userId}`,
  }),

  /** The one open reallocation or redemption of a removed employee's pooled money. */
  poolClaim: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'POOLCLAIM' }),

  /** A signed-in session: the SHA-256 of its refresh token. Lets us revoke sessions ourselves. TTL 30 days. */
  session: (userId: string, refreshTokenHash: string): Key => ({
    pk: `USER#${userId}`,
    sk: `SESSION#${refreshTokenHash}`,
  }),

  /**
   * An access token of the public web client that our API handed out (social
   * sign-in, or its refresh): only these are honoured, so a token someone got
   * from the hosted UI directly (skipping our code step) opens nothing. TTL =
   * the token's expiry.
   */
  webAccessToken: (userId: string, tokenId: string): Key => ({
    pk: `USER#${userId}`,
    sk: `WEBTOKEN#${tokenId}`,
  }),

  /** A user's second factor: TOTP secret (pending or on) and hashed recovery codes. Never sent back. */
  secondFactor: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'MFA' }),

  /** The newest e-mailed identity code (its hash), for factor changes without a password. TTL minutes. */
  identityCode: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'IDCODE' }),

  /** A fresh factor (password or code) proven for one access token (its jti). TTL minutes. */
  stepUp: (userId: string, tokenId: string): Key => ({ pk: `USER#${userId}`, sk: `STEPUP#${tokenId}` }),

  /** Uniqueness guard and lookup: one account per e-mail. Holds the userId. */
  emailClaim: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),

  /** An invitation, keyed by the invited e-mail; listed by team via gsi1. */
  invitation: (email: string): Key => ({ pk: `INVITE#${email}`, sk: 'INVITE' }),
  invitationByTeam: (teamId: string, email: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `INVITE#${email}`,
  }),

  /**
   * Roster import (issue 28): a person to invite on a later start day, one per
   * team and address (a second upload of the same file finds it). A team's
   * scheduled starts are one Query on its partition; the daily job finds the
   * day's through gsi3 (sparse: only scheduled starts and people with a last
   * day carry these keys), `STARTDUE#<day>`, never by scanning teams.
   */
  scheduledStart: (teamId: string, email: string): Key => ({ pk: `STARTS#${teamId}`, sk: `EMAIL#${email}` }),
  scheduledStartByDay: (day: string, teamId: string, email: string) => ({
    gsi3pk: `STARTDUE#${day}`,
    gsi3sk: `${teamId}#${email}`,
  }),
  /** Offboarding (issue 28): an employee with a last day, listed under it (gsi3, sparse) for the daily job. */
  userByLastDay: (day: string, userId: string) => ({ gsi3pk: `LASTDAY#${day}`, gsi3sk: `USER#${userId}` }),
  // --- Provisioning (SCIM) ---------------------------------------------------
  /** A provisioning token of a team: its name, the start of the token, when made, last used, revoked. */
  provisioningToken: (teamId: string, tokenId: string): Key => ({
    pk: `TEAM#${teamId}`,
    sk: `PROVTOKEN#${tokenId}`,
  }),
  /** The lookup of a presented token: its SHA-256, never the token. Holds team, token id, name, revokedAt. */
  provisioningTokenHash: (tokenHash: string): Key => ({ pk: `PROVKEY#${tokenHash}`, sk: 'PROVKEY' }),
  /** A SCIM user of a team, by the id the IdP keeps (stable from invitation to member). */
  scimUser: (teamId: string, scimId: string): Key => ({ pk: `SCIM#${teamId}`, sk: `USER#${scimId}` }),
  /**
   * Uniqueness claims inside a team's SCIM users, each holding the scimId: by
   * userName (lower-cased: RFC 7643 makes it case-insensitive), by the
   * invitation address, by externalId (case-exact). Written with the user.
   */
  scimClaim: (teamId: string, kind: 'NAME' | 'MAIL' | 'EXT', value: string): Key => ({
    pk: `SCIM#${teamId}`,
    sk: `${kind}#${value}`,
  }),

  // --- Money ------------------------------------------------------------------
  /** A ledger account's balance (available and held cents). */
  account: (accountId: string): Key => ({ pk: `ACCOUNT#${accountId}`, sk: 'BALANCE' }),
  /** One leg of a journal entry on an account; sk orders an account's statement. */
  accountEntry: (accountId: string, entryId: string, leg: number): Key => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `ENTRY#${entryId}#${leg}`,
  }),
  /** A journal entry; its id is the idempotency key of the movement. Listed by team via gsi1. */
  journal: (entryId: string): Key => ({ pk: `JOURNAL#${entryId}`, sk: 'JOURNAL' }),
  journalByTeam: (teamId: string, postedAt: string, entryId: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `JOURNAL#${postedAt}#${entryId}`,
  }),

  /** A virtual card, keyed by the issuer's id (the webhook only knows that). */
  card: (issuerCardId: string): Key => ({ pk: `CARD#${issuerCardId}`, sk: 'CARD' }),

  /** A card authorization decision, keyed by the issuer's id so a redelivery finds it. */
  authorization: (issuerAuthId: string): Key => ({ pk: `AUTH#${issuerAuthId}`, sk: 'AUTH' }),
  authorizationByUser: (userId: string, decidedAt: string, issuerAuthId: string) => ({
    gsi2pk: `USER#${userId}`,
    gsi2sk: `AUTH#${decidedAt}#${issuerAuthId}`,
  }),
  /** A team's decisions by time: the manager's list of purchases still pending (on hold). */
  authorizationByTeam: (teamId: string, decidedAt: string, issuerAuthId: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `AUTH#${decidedAt}#${issuerAuthId}`,
  }),
  /**
   * A declined purchase, beside its decision (same pk): only declines carry it,
   * so Purchase History and the Statement page through a person's or a team's
   * declines without reading every approved authorization.
   */
  decline: (issuerAuthId: string): Key => ({ pk: `AUTH#${issuerAuthId}`, sk: 'DECLINE' }),
  declineByUser: (userId: string, decidedAt: string, issuerAuthId: string) => ({
    gsi2pk: `USER#${userId}`,
    gsi2sk: `DECLINE#${decidedAt}#${issuerAuthId}`,
  }),
  declineByTeam: (teamId: string, decidedAt: string, issuerAuthId: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `DECLINE#${decidedAt}#${issuerAuthId}`,
  }),

  /** A purchase (card transaction) with its receipt; listed by team (gsi1) and by user (gsi2). */
  purchase: (purchaseId: string): Key => ({ pk: `PURCHASE#${purchaseId}`, sk: 'PURCHASE' }),
  purchaseByTeam: (teamId: string, createdAt: string, purchaseId: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `PURCHASE#${createdAt}#${purchaseId}`,
  }),
  purchaseByUser: (userId: string, createdAt: string, purchaseId: string) => ({
    gsi2pk: `USER#${userId}`,
    gsi2sk: `PURCHASE#${createdAt}#${purchaseId}`,
  }),
  /**
   * Sparse: only while a purchase awaits its receipt (written with it by the
   * settlement, removed in the update that records the receipt). One query
   * gives a team's, begins_with `<userId>#` one person's, oldest first.
   */
  purchaseAwaitingReceipt: (teamId: string, userId: string, createdAt: string, purchaseId: string) => ({
    gsi3pk: `RECEIPTDUE#${teamId}`,
    gsi3sk: `${userId}#${createdAt}#${purchaseId}`,
  }),
  /** The gsi3 partition of a team's purchases awaiting a receipt. */
  receiptsDueOfTeam: (teamId: string) => `RECEIPTDUE#${teamId}`,
  /** The gsi3 sort key prefix of one person's purchases awaiting a receipt. */
  receiptsDueOfUser: (userId: string) => `${userId}#`,

  /** Processed Stripe event ids, so a redelivered event does nothing twice. */
  stripeEvent: (eventId: string): Key => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),

  // --- Fund requests (issue 27) -----------------------------------------------
  /** An employee's request for funds; listed by team (gsi1) and by the employee (gsi2), newest first. */
  request: (requestId: string): Key => ({ pk: `REQUEST#${requestId}`, sk: 'REQUEST' }),
  requestByTeam: (teamId: string, createdAt: string, requestId: string) => ({
    gsi1pk: `TEAM#${teamId}`,
    gsi1sk: `REQUEST#${createdAt}#${requestId}`,
  }),
  requestByUser: (userId: string, createdAt: string, requestId: string) => ({
    gsi2pk: `USER#${userId}`,
    gsi2sk: `REQUEST#${createdAt}#${requestId}`,
  }),
  /**
   * Sparse: only while a request is pending, under the UTC day it expires;
   * the expiry job reads the partitions of the days up to today.
   */
  requestExpiring: (expiresAt: string, requestId: string) => ({
    gsi3pk: `REQUESTEXPIRY#${expiresAt.slice(0, 10)}`,
    gsi3sk: `${expiresAt}#${requestId}`,
  }),
  /** One open request per employee and item: holds the open request's id while it is pending. */
  openRequest: (userId: string, itemKey: string): Key => ({
    pk: `USER#${userId}`,
    sk: `OPENREQUEST#${itemKey}`,
  }),
  /** What a person's requests were approved automatically in a month (team rule), cents. */
  autoApprovedMonth: (userId: string, month: string): Key => ({
    pk: `USER#${userId}`,
    sk: `AUTOAPPROVED#${month}`,
  }),

  // --- Catalogue --------------------------------------------------------------
  /** A catalogue item; listed per category via gsi1 (seven partitions, not one). */
  merch: (merchId: string): Key => ({ pk: `MERCH#${merchId}`, sk: 'MERCH' }),
  merchByCategory: (category: string, name: string, merchId: string) => ({
    gsi1pk: `CATALOGUE#${category}`,
    gsi1sk: `${name.toLowerCase()}#${merchId}`,
  }),

  /**
   * Someone opened a shop item (analytics, TTL one year). Bucketed by team and
   * month: a team's views of a month are one Query, and no partition is shared
   * by every team.
   */
  itemView: (teamId: string, viewedAt: string, viewId: string): Key => ({
    pk: `ITEMVIEWS#${teamId}#${monthOf(viewedAt)}`,
    sk: `VIEW#${viewedAt}#${viewId}`,
  }),

  /**
   * Shop item views of one person, newest last (gsi2): what the settlement reads
   * to infer a purchase's skill area (issue 26). Views before issue 26 lack it.
   */
  itemViewByUser: (userId: string, viewedAt: string, viewId: string) => ({
    gsi2pk: `USER#${userId}`,
    gsi2sk: `VIEW#${viewedAt}#${viewId}`,
  }),

  // --- Insights (issue 26) -------------------------------------------------------
  /**
   * A team's aggregates, kept by the ledger's own transactions (ADD), in one
   * partition per team: month items (`MONTH#<yyyy-mm>`, merchants included as
   * attributes), the team's NOW figures, a summary per
   * person (`PERSON#<userId>`) and a month per person (`PERSONMONTH#<userId>#<yyyy-mm>`).
   */
  insightsNow: (teamId: string): Key => ({ pk: `INSIGHTS#${teamId}`, sk: 'NOW' }),
  insightsMonth: (teamId: string, month: string): Key => ({ pk: `INSIGHTS#${teamId}`, sk: `MONTH#${month}` }),
  /** The next charge's estimate for insights, recomputed when a few minutes old (docs/insights.md). */
  insightsNextCharge: (teamId: string): Key => ({ pk: `INSIGHTS#${teamId}`, sk: 'NEXTCHARGE' }),
  insightsPerson: (teamId: string, userId: string): Key => ({
    pk: `INSIGHTS#${teamId}`,
    sk: `PERSON#${userId}`,
  }),
  insightsPersonMonth: (teamId: string, userId: string, month: string): Key => ({
    pk: `INSIGHTS#${teamId}`,
    sk: `PERSONMONTH#${userId}#${month}`,
  }),
  /**
   * Each person's net spend in a month (`PEOPLE#<yyyy-mm>#<n>`), a calendar
   * quarter (`PEOPLEQ#<yyyy>-Q<q>#<n>`) or a year (`PEOPLEY#<yyyy>#<n>`), as
   * attributes `s:<userId>` of one of PEOPLE_SHARDS items (n from
   * peopleShardOf): the Insights page sums a period's spend by person from 8
   * items per bucket, not one item per person (docs/insights.md "People").
   */
  insightsPeopleShard: (
    teamId: string,
    bucket: { kind: 'month' | 'quarter' | 'year'; key: string },
    shard: number,
  ): Key => ({
    pk: `INSIGHTS#${teamId}`,
    sk: `${PEOPLE_BUCKET_PREFIX[bucket.kind]}#${bucket.key}#${shard}`,
  }),
  /**
   * An employee on the team listed by when their dormancy clock started
   * (`quietSince`: last purchase, card issued or reactivated), in gsi4 (user
   * item; removed on removal): "not spent for 3 months" and "heading for
   * dormancy" read the team's quietest, never every member.
   */
  userByQuietSince: (teamId: string, quietSince: string, userId: string) => ({
    gsi4pk: `QUIET#${teamId}`,
    gsi4sk: `${quietSince}#${userId}`,
  }),

  // --- Public forms -----------------------------------------------------------
  /** A waitlist lead, keyed by e-mail so joining twice updates one record. Listed by month. */
  lead: (email: string): Key => ({ pk: `LEAD#${email}`, sk: 'LEAD' }),
  leadByMonth: (createdAt: string, email: string) => ({
    gsi1pk: `LEADS#${monthOf(createdAt)}`,
    gsi1sk: `${createdAt}#${email}`,
  }),

  /** A contact message. Listed by month. */
  message: (messageId: string): Key => ({ pk: `MESSAGE#${messageId}`, sk: 'MESSAGE' }),
  messageByMonth: (createdAt: string, messageId: string) => ({
    gsi1pk: `MESSAGES#${monthOf(createdAt)}`,
    gsi1sk: `${createdAt}#${messageId}`,
  }),

  /**
   * What a team moved today of one kind of money (deposit, redemption), against
   * its daily velocity limit. TTL a few days after the day.
   */
  moneyDay: (teamId: string, kind: string, day: string): Key => ({
    pk: `MONEYLIMIT#${teamId}`,
    sk: `DAY#${kind}#${day}`,
  }),
  /** One request's share of a team's day (above), so a retried request counts once. TTL as the day. */
  moneyReservation: (teamId: string, kind: string, reservationId: string): Key => ({
    pk: `MONEYLIMIT#${teamId}`,
    sk: `RESERVE#${kind}#${reservationId}`,
  }),

  // --- Invoices ----------------------------------------------------------------
  /** A team's last invoice number (`lastSequence`): taken in the transaction that stores the invoice. */
  invoiceCounter: (teamId: string): Key => ({ pk: `TEAM#${teamId}`, sk: 'INVOICECOUNTER' }),
  /** An invoice or credit note, by its sequence (zero-padded, so the team's list sorts by number). */
  invoice: (teamId: string, sequence: number): Key => ({
    pk: `TEAM#${teamId}`,
    sk: `INVOICE#${String(sequence).padStart(9, '0')}`,
  }),
  /** The billing run an invoice was made for (a charge id, `DEPOSIT#<key>`, a redemption entry): one invoice each. */
  invoiceSource: (teamId: string, sourceId: string): Key => ({
    pk: `TEAM#${teamId}`,
    sk: `INVOICESOURCE#${sourceId}`,
  }),

  // --- Cross-cutting ----------------------------------------------------------
  /** Audit event: who did what to whom, before and after. Queried per team, newest last. */
  audit: (teamId: string, eventId: string): Key => ({ pk: `TEAM#${teamId}`, sk: `AUDIT#${eventId}` }),

  /** Idempotency record of a money-moving request: hash of the body and the response. TTL 24 h. */
  idempotency: (scope: string, key: string): Key => ({
    pk: `IDEMPOTENCY#${scope}#${key}`,
    sk: 'IDEMPOTENCY',
  }),

  /** An e-mail link token (verify, reset), stored by its SHA-256, never in clear. TTL = expiry. */
  emailToken: (tokenHash: string): Key => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),

  /**
   * Monthly e-mails (issue 26): one per person, kind and month (`yyyy-mm`),
   * written before the e-mail goes, so a re-run sends nothing twice. TTL 400 days.
   */
  monthlyEmail: (userId: string, kind: string, month: string): Key => ({
    pk: `USER#${userId}`,
    sk: `MONTHLYMAIL#${kind}#${month}`,
  }),
  /** A team's monthly e-mails of a month all went: later daily runs skip the team. TTL 400 days. */
  monthlyEmailsDone: (teamId: string, month: string): Key => ({
    pk: `TEAM#${teamId}`,
    sk: `MONTHLYMAIL#${month}`,
  }),

  /** One run of a scheduled job for one day: makes a second firing that day a no-op. */
  jobRun: (jobId: string, day: string): Key => ({ pk: `JOBRUN#${jobId}`, sk: `DAY#${day}` }),

  /** How far reconciliation has read one Stripe list (`charges`, `refunds`, ...), as Stripe's `created`. */
  reconWatermark: (source: string): Key => ({ pk: 'RECON#WATERMARK', sk: `SOURCE#${source}` }),
  /** A difference reconciliation could not explain, keyed by the Stripe object, so it is reported once. */
  reconDifference: (stripeObjectId: string): Key => ({ pk: `RECONDIFF#${stripeObjectId}`, sk: 'DIFF' }),
  reconDifferenceByMonth: (foundAt: string, stripeObjectId: string) => ({
    gsi1pk: `RECONDIFFS#${monthOf(foundAt)}`,
    gsi1sk: `${foundAt}#${stripeObjectId}`,
  }),

  /**
   * A social sign-in waiting for its authenticator code: the tokens the hosted
   * UI's code was exchanged for, keyed by the SHA-256 of the HttpOnly cookie's
   * value. TTL 5 minutes; single use.
   */
  pendingSocialSignIn: (challengeHash: string): Key => ({
    pk: `SOCIALSIGNIN#${challengeHash}`,
    sk: 'PENDING',
  }),

  /** Failed sign-ins of one e-mail address or one source address (growing delays). TTL an hour after the last. */
  signInFailures: (scope: 'address' | 'source', id: string): Key => ({
    pk: `SIGNINFAIL#${scope}#${id}`,
    sk: 'FAILURES',
  }),
  /** A fixed rate-limit window for one bucket and client. TTL = window end. */
  rateWindow: (bucket: string, client: string, windowStart: number): Key => ({
    pk: `RATE#${bucket}#${client}`,
    sk: `WINDOW#${windowStart}`,
  }),
};
