/**
 * The route table: the one list of backend operations. CDK builds one Lambda and
 * one API Gateway route per entry, the local gateway serves the same entries with
 * the same handlers, the web client is typed from it, and tests check that every
 * entry has a handler and the right authorizer.
 *
 * Handler file: `lambdas/src/<http|webhooks>/<operationId>.ts`, exporting `handler`.
 */
import { z } from 'zod';
import {
  changePasswordInput,
  emailTokenInput,
  factorChangeInput,
  forgotPasswordInput,
  identityProofInput,
  inviteCheckInput,
  inviteCheckOutput,
  inviteManagerInput,
  recoveryCodesOutput,
  refreshedSessionOutput,
  refreshSessionInput,
  registerEmployeeInput,
  registeredOutput,
  registerManagerInput,
  resetPasswordInput,
  secondFactorCodeInput,
  secondFactorStatusOutput,
  sessionOutput,
  signInInput,
  socialSignInInput,
  stepUpInput,
  totpEnrolmentOutput,
  verifyEmailOutput,
} from '../schemas/auth';
import {
  addCardInput,
  cardIdInput,
  customerOutput,
  depositInput,
  depositOutput,
  depositPreviewOutput,
  finalizeSetupInput,
  setupOutput,
  updateCustomerInput,
} from '../schemas/billing';
import { purchaseCheckInput, purchaseCheckOutput } from '../schemas/card';
import { catalogueOutput, itemViewInput, itemViewOutput } from '../schemas/catalogue';
import { commitmentPreviewOutput, okResponse } from '../schemas/common';
import {
  insightsAnswer,
  insightsPeopleAnswer,
  insightsPeopleListAnswer,
  insightsPeopleListQuery,
  insightsQuery,
  mySpendAnswer,
  purchaseSkillInput,
} from '../schemas/insights';
import {
  inviteEmployeesInput,
  inviteEmployeesOutput,
  withdrawInvitationsInput,
  withdrawInvitationsOutput,
} from '../schemas/invitations';
import { invoiceNumberInput, invoicesOutput } from '../schemas/invoices';
import { meOutput, type Role } from '../schemas/me';
import { unsubscribeInput, unsubscribeOutput } from '../schemas/nudges';
import { budgetPreviewInput, profileOutput, updateProfileInput, userIdInput } from '../schemas/profile';
import {
  createdProvisioningTokenOutput,
  createProvisioningTokenInput,
  provisioningOutput,
  provisioningSettingsInput,
  provisioningTokenIdInput,
  scimIdInput,
  scimListInput,
  scimObjectInput,
  scimOutput,
} from '../schemas/provisioning';
import { joinWaitlistInput, sendContactMessageInput } from '../schemas/public';
import {
  confirmReceiptInput,
  confirmReceiptOutput,
  listPurchasesInput,
  listPurchasesOutput,
  purchaseIdInput,
  purchaseRow,
  receiptUploadInput,
  receiptUploadOutput,
  receiptUrlOutput,
} from '../schemas/purchases';
import { requestAction, requestActionAnswer, requestsAnswer, requestsQuery } from '../schemas/requests';
import { importRosterInput, importRosterOutput, lastDayOutput, setLastDayInput } from '../schemas/roster';
import {
  closeSubscriptionInput,
  subscriptionInput,
  subscriptionOutput,
  subscriptionPageOutput,
} from '../schemas/subscription';
import {
  accountingExportInput,
  auditInput,
  auditOutput,
  balanceOutput,
  bulkResultOutput,
  cardKeyInput,
  cardKeyOutput,
  cardStatusInput,
  deleteEmployeesInput,
  employeesOutput,
  fileOutput,
  moneyMovedOutput,
  pauseInput,
  reallocateInput,
  reallocationPreviewOutput,
  redeemInput,
  redemptionPreviewOutput,
  statementOutput,
  teamLedgerOutput,
  teamPurchasesCsvInput,
  teamTimeZoneInput,
  teamTimeZoneOutput,
} from '../schemas/team';
import type { UserPoolCall } from './userPoolCalls';
import { STRIPE_WEBHOOK_MAX_BODY_BYTES } from './webhookLimits';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A fixed window per client IP: at most `limit` calls every `windowSeconds`. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

/** Who may call a route. */
export type Access =
  /** Anyone; public routes that write are rate limited per client. */
  | { kind: 'public'; rateLimit?: RateLimit }
  /**
   * A signed-in user (Cognito JWT) whose role, loaded from the table, is listed.
   * `verifiedEmail`: only once their e-mail address is verified (docs/decisions.md).
   */
  | { kind: 'signedIn'; roles: readonly Role[]; verifiedEmail?: boolean; rateLimit?: RateLimit }
  /** Stripe, proven by the webhook signature on the raw body; no JWT. */
  | { kind: 'stripeSignature' }
  /**
   * A team's identity provider (SCIM), proven by one of the team's provisioning
   * tokens (`Authorization: Bearer lbscim_...`, checked against its stored hash
   * on every call, so a revoked token is refused at once); no JWT. Limited per
   * token. Answers and errors are SCIM's (application/scim+json, RFC 7644 3.12).
   */
  | { kind: 'scimToken'; rateLimit: RateLimit };

/**
 * Records a function may delete, each by its partition-key prefix
 * (infra/lib/capabilities.ts takes the prefix from lambdas/src/data/keys.ts and
 * grants DeleteItem only under it with a `dynamodb:LeadingKeys` condition).
 */
export type DeletableRecord = 'emailToken' | 'invitation' | 'session' | 'idempotencyKey' | 'scheduledStart';

/**
 * What a route's Lambda may touch; CDK grants exactly this (least privilege):
 * - `table:read`: GetItem, BatchGetItem, Query (never Scan: no function scans).
 * - `table:write`: reading, PutItem, UpdateItem, ConditionCheckItem.
 * - `table:delete:<record>`: DeleteItem on that record kind's keys only.
 * - `userPool:<call>`: the IAM actions of that user-pool adapter call (userPoolCalls.ts).
 * - `stripe`: the Stripe API key; `stripe:webhookSecret`: the webhook signing secret
 *   (two secrets, so the 40-odd functions calling Stripe cannot forge its webhooks).
 * - `factorKey`: the key that seals second-factor secrets in the table; only the
 *   functions that check or set authenticator codes (issue 24, attack 11).
 */
export type Capability =
  | 'table:read'
  | 'table:write'
  | `table:delete:${DeletableRecord}`
  | 'email:send'
  | 'receipts:read'
  | 'receipts:write'
  | `userPool:${UserPoolCall}`
  | 'stripe'
  | 'stripe:webhookSecret'
  | 'factorKey';

export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** API Gateway path syntax: `/employees/{userId}`. */
  path: string;
  summary: string;
  access: Access;
  input: I;
  output: O;
  /** Success status (200 unless the route creates something). */
  status?: number;
  /** Largest accepted body, bytes. Defaults to DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Moves money: the request must carry an `Idempotency-Key` header; a retry
   * with the same key and body gets the first answer, another body is refused.
   */
  idempotent?: boolean;
  /**
   * A GET whose answer changes rarely and is the same for everyone allowed:
   * sent with an ETag and `Cache-Control: private, no-cache`, so the browser
   * keeps it and asks again with If-None-Match; an unchanged answer is a 304
   * with no body (platform/http.ts). Access is checked first, as always.
   */
  revalidate?: boolean;
  /**
   * A file download instead of JSON: the output is `fileOutput` and the wrapper
   * sends its `body` as this content type, with its `filename` as an attachment
   * (platform/http.ts; gzip above 8 KB as for JSON).
   */
  responseType?: 'text/csv' | 'application/pdf';
  /**
   * A signed-in write that still works for a closed team (its records are
   * read-only, docs/decisions.md "Subscription lifecycle"): every other
   * non-GET signed-in route is refused for it by the handler wrapper.
   */
  openWhenClosed?: true;
  /**
   * A money-moving manager action that needs a factor proven in the last few
   * minutes (lambdas/src/platform/freshFactor.ts); refused with STEP_UP_REQUIRED
   * otherwise. Amount-dependent ones check where the amount is known: deposits
   * and reallocations in the handler, new monthly commitments (invitations,
   * budget raises, the setup wizard's invitations) in their service.
   */
  freshFactor?: 'always' | 'aboveThreshold';
  /**
   * Reads the session cookie (the refresh token; lambdas/src/platform/sessionCookie.ts).
   * The wrapper then refuses a request not sent as application/json, even with no
   * body: a cross-site form cannot send JSON, so no other site can make it (CSRF;
   * SameSite=Strict is the first guard, docs/security.md "Sessions").
   */
  sessionCookie?: true;
  /**
   * Also takes a form body (application/x-www-form-urlencoded or
   * multipart/form-data), which it ignores: RFC 8058's one-click unsubscribe,
   * which a mail client POSTs with `List-Unsubscribe=One-Click` and the token
   * in the URL. Never for a signed-in route (a form could be sent cross-site).
   */
  acceptsForm?: true;
  uses: readonly Capability[];
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Public form limit (docs/decisions.md): 10 submissions per client IP per
 * 10 minutes per form. Generous for a shared office NAT, useless for spam.
 */
const PUBLIC_FORM_LIMIT: RateLimit = { limit: 10, windowSeconds: 600 };
/**
 * Account creation and e-mail sending endpoints (password recovery, the
 * invitation link, invite-your-manager): per client IP; each address also has
 * its own daily cap (services/accounts/emailCaps.ts).
 */
const SIGN_UP_LIMIT: RateLimit = { limit: 10, windowSeconds: 3600 };
const EMAIL_SENDING_LIMIT: RateLimit = { limit: 5, windowSeconds: 600 };
/**
 * Sign-in attempts per client IP: only a flood guard. Guessing is slowed by
 * growing delays after failures, per address and per source
 * (lambdas/src/services/accounts/signInThrottle.ts), which never lock the owner out.
 */
const SIGN_IN_CLIENT_LIMIT: RateLimit = { limit: 60, windowSeconds: 600 };
/** Second-factor codes: enough for typos, too few to guess six digits. */
const CODE_LIMIT: RateLimit = { limit: 10, windowSeconds: 600 };
/**
 * Adding a card to the team (setup, Credit Card page): enough for a manager's
 * typos and declines, too few for card testing (trying stolen numbers one
 * after another against our Stripe account).
 */
const CARD_LIMIT: RateLimit = { limit: 10, windowSeconds: 3_600 };
/** Redeeming e-mail links: enough for typos, too few to guess. */
const LOOKUP_LIMIT: RateLimit = { limit: 20, windowSeconds: 600 };
/** Every page load of a signed-in person refreshes once; offices share addresses. */
const REFRESH_LIMIT: RateLimit = { limit: 300, windowSeconds: 600 };
/**
 * SCIM calls per provisioning token: an identity provider assigning a whole
 * company at once (Okta sends about 10 at a time) gets through in minutes; a
 * leaked token cannot hammer the API. Over it the IdP gets 429 and retries.
 */
const SCIM_LIMIT: RateLimit = { limit: 3_000, windowSeconds: 60 };
/**
 * One-click unsubscribes: a mail provider's servers POST for many of their
 * users from few addresses, so only a flood guard (the token is 256 random bits).
 */
const UNSUBSCRIBE_LIMIT: RateLimit = { limit: 300, windowSeconds: 600 };
/** Shop item views, per signed-in user. */
const ITEM_VIEW_LIMIT: RateLimit = { limit: 120, windowSeconds: 600 };

/** Keeps each entry's exact access kind in its type, so handlers of signed-in routes get an Actor. */
function route<I extends z.ZodType, O extends z.ZodType, const A extends Access>(
  def: RouteDef<I, O> & { access: A },
): RouteDef<I, O> & { access: A } {
  return def;
}

const signedIn: readonly Role[] = ['manager', 'employee'];

/** A SCIM change that may remove a person or withdraw, or send again, their invitation. */
const REMOVAL_USES = [
  'table:write',
  'table:delete:session',
  'table:delete:invitation',
  'userPool:disableUser',
  'userPool:signOutEverywhere',
  'email:send',
  'stripe',
] as const satisfies readonly Capability[];

/** SCIM's active true may restore a removed member (issue 28): sign-in enabled again, a new card, pooled money back. */
const REACTIVATION_USES = [...REMOVAL_USES, 'userPool:enableUser'] as const satisfies readonly Capability[];

export const routes = {
  joinWaitlist: route({
    method: 'POST',
    path: '/waitlist',
    summary: 'Join the launch waitlist (/subscribe).',
    access: { kind: 'public', rateLimit: PUBLIC_FORM_LIMIT },
    input: joinWaitlistInput,
    output: okResponse,
    status: 201,
    maxBodyBytes: 4 * 1024,
    uses: ['table:write'],
  }),
  sendContactMessage: route({
    method: 'POST',
    path: '/messages',
    summary: 'Send a message to support (/support); stored, then e-mailed to the support inbox.',
    access: { kind: 'public', rateLimit: PUBLIC_FORM_LIMIT },
    input: sendContactMessageInput,
    output: okResponse,
    status: 201,
    maxBodyBytes: 16 * 1024,
    uses: ['table:write', 'email:send'],
  }),
  registerManager: route({
    method: 'POST',
    path: '/auth/registerManager',
    summary: "Create a team and its manager ('Create New Team'); sends the verification e-mail.",
    access: { kind: 'public', rateLimit: SIGN_UP_LIMIT },
    input: registerManagerInput,
    output: registeredOutput,
    status: 201,
    uses: [
      'table:write',
      'email:send',
      'userPool:createConfirmedUser',
      'userPool:loginCreatedAt',
      'userPool:deleteUser',
    ],
  }),
  checkInvitation: route({
    method: 'POST',
    path: '/auth/invitationCheck',
    summary:
      "'Enter your email' (/registerEmployee): e-mails the invitation link if the address is invited; the same answer either way.",
    access: { kind: 'public', rateLimit: EMAIL_SENDING_LIMIT },
    input: inviteCheckInput,
    output: inviteCheckOutput,
    uses: ['table:write', 'email:send'],
  }),
  registerEmployee: route({
    method: 'POST',
    path: '/auth/registerEmployee',
    summary:
      "Join the inviting manager's team with the invitation's e-mailed link; uses the link, consumes the invitation.",
    access: { kind: 'public', rateLimit: SIGN_UP_LIMIT },
    input: registerEmployeeInput,
    output: registeredOutput,
    status: 201,
    uses: [
      'table:write',
      'table:delete:invitation',
      'email:send',
      'userPool:createConfirmedUser',
      'userPool:loginCreatedAt',
      'userPool:deleteUser',
    ],
  }),
  inviteManager: route({
    method: 'POST',
    path: '/auth/inviteManager',
    summary: "'Invite your manager to the product': e-mails the manager an invitation to create a team.",
    access: { kind: 'public', rateLimit: EMAIL_SENDING_LIMIT },
    input: inviteManagerInput,
    output: okResponse,
    uses: ['table:write', 'email:send'],
  }),
  signIn: route({
    method: 'POST',
    path: '/auth/signIn',
    summary:
      'E-mail and password sign-in (+ authenticator code when enrolled); records lastLogin; sets the session cookie. Growing delays after failures.',
    access: { kind: 'public', rateLimit: SIGN_IN_CLIENT_LIMIT },
    input: signInInput,
    output: sessionOutput,
    uses: ['table:write', 'userPool:passwordSignIn', 'userPool:revokeRefreshToken', 'factorKey'],
  }),
  completeSocialSignIn: route({
    method: 'POST',
    path: '/auth/social',
    summary:
      "Social sign-in's return: exchanges the hosted UI's code (with its PKCE verifier) for tokens, asks for the authenticator code when enrolled, or for the account's password once when the provider may not join it on the address alone, sets the session cookie.",
    access: { kind: 'public', rateLimit: SIGN_IN_CLIENT_LIMIT },
    // Reads the pending sign-in's cookie; JSON only, like the other cookie routes (CSRF).
    sessionCookie: true,
    input: socialSignInInput,
    output: sessionOutput,
    // The code exchange is a plain HTTPS call to the hosted UI. The password step checks the
    // account's password (the server client's secret), then deletes the provider's own pool user
    // and links its identity to the account.
    uses: [
      'table:write',
      'userPool:revokeWebClientToken',
      'userPool:federatedLogin',
      'userPool:passwordSignIn',
      'userPool:revokeRefreshToken',
      'userPool:joinFederatedLogin',
      'factorKey',
    ],
  }),
  refreshSession: route({
    method: 'POST',
    path: '/auth/refresh',
    summary:
      "A new access token for the live session named by the session cookie (ended sessions are refused), with GET /me's answer for its holder.",
    access: { kind: 'public', rateLimit: REFRESH_LIMIT },
    sessionCookie: true,
    input: refreshSessionInput,
    output: refreshedSessionOutput,
    uses: ['table:write', 'userPool:refreshTokens'],
  }),
  signOut: route({
    method: 'POST',
    path: '/auth/signOut',
    summary:
      'Ends every session of the account: refresh tokens stop working (here and at Cognito); clears the session cookie.',
    access: { kind: 'public', rateLimit: REFRESH_LIMIT },
    sessionCookie: true,
    input: refreshSessionInput,
    output: okResponse,
    uses: [
      'table:write',
      'table:delete:session',
      'userPool:revokeRefreshToken',
      'userPool:signOutEverywhere',
    ],
  }),
  stepUp: route({
    method: 'POST',
    path: '/auth/stepUp',
    summary: 'Proves a fresh factor (authenticator code, or password without one) for money-moving actions.',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    input: stepUpInput,
    output: okResponse,
    uses: ['table:write', 'userPool:passwordSignIn', 'userPool:revokeRefreshToken', 'factorKey'],
  }),
  getSecondFactor: route({
    method: 'GET',
    path: '/me/secondFactor',
    summary: 'Whether an authenticator app is set up, and how many recovery codes are left.',
    access: { kind: 'signedIn', roles: signedIn },
    input: z.object({}),
    output: secondFactorStatusOutput,
    uses: ['table:read'],
  }),
  startTotpEnrolment: route({
    method: 'POST',
    path: '/me/secondFactor/totp',
    summary:
      'With the password (or a code e-mailed to the account): starts setting up an authenticator app, the secret as a QR code and a key, shown this once.',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    input: identityProofInput,
    output: totpEnrolmentOutput,
    uses: ['table:write', 'userPool:passwordSignIn', 'userPool:revokeRefreshToken', 'factorKey'],
  }),
  confirmTotpEnrolment: route({
    method: 'POST',
    path: '/me/secondFactor/totp/confirm',
    summary:
      'Turns the authenticator app on with a code from it; answers ten recovery codes, once, and e-mails the account. Not a step-up.',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    input: secondFactorCodeInput,
    output: recoveryCodesOutput,
    uses: ['table:write', 'factorKey'],
  }),
  turnOffSecondFactor: route({
    method: 'POST',
    // Under /auth so the session cookie comes along: this session is spared while the others end.
    path: '/auth/secondFactor/turnOff',
    summary:
      'With a current code or a recovery code, and the password (or an e-mailed code): turns the authenticator app off (secret and recovery codes removed), audited, the account e-mailed; every other session ends.',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    sessionCookie: true,
    input: factorChangeInput,
    output: okResponse,
    uses: [
      'table:write',
      'table:delete:session',
      'userPool:passwordSignIn',
      'userPool:revokeRefreshToken',
      'factorKey',
    ],
  }),
  changePassword: route({
    method: 'POST',
    // Under /auth so the session cookie comes along: this session is spared while the others end.
    path: '/auth/changePassword',
    summary:
      'With the current password: sets a new one, audited; every other session ends (a wrong current password counts towards the sign-in throttle).',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    sessionCookie: true,
    input: changePasswordInput,
    output: okResponse,
    uses: [
      'table:write',
      'table:delete:session',
      'userPool:passwordSignIn',
      'userPool:revokeRefreshToken',
      'userPool:setPassword',
    ],
  }),
  regenerateRecoveryCodes: route({
    method: 'POST',
    path: '/me/secondFactor/recoveryCodes',
    summary:
      'With a current code and the password (or an e-mailed code): ten new recovery codes (the old ones stop working), shown once; the account is e-mailed.',
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    input: factorChangeInput,
    output: recoveryCodesOutput,
    uses: ['table:write', 'userPool:passwordSignIn', 'userPool:revokeRefreshToken', 'factorKey'],
  }),
  sendIdentityCode: route({
    method: 'POST',
    path: '/me/identityCode',
    summary:
      "E-mails an 8-digit code to the account's verified address, for changing its second factor without a password (an account made by social sign-in).",
    access: { kind: 'signedIn', roles: signedIn, rateLimit: CODE_LIMIT },
    input: z.object({}),
    output: okResponse,
    uses: ['table:write'],
  }),
  verifyEmail: route({
    method: 'POST',
    path: '/auth/verifyEmail',
    summary:
      "Redeems the single-use link of the verification e-mail; a member's joining (charge, card, funding) follows.",
    access: { kind: 'public', rateLimit: LOOKUP_LIMIT },
    input: emailTokenInput,
    output: verifyEmailOutput,
    // Marks the link used (kept until it expires), so no delete. Stripe and e-mail: a member who
    // verifies is charged and funded (a decline is e-mailed to the manager).
    uses: ['table:write', 'email:send', 'stripe'],
  }),
  resendVerification: route({
    method: 'POST',
    path: '/auth/resendVerification',
    summary: "'Resend verification email' for the signed-in user.",
    access: { kind: 'signedIn', roles: signedIn, rateLimit: { limit: 3, windowSeconds: 600 } },
    input: z.object({}),
    output: okResponse,
    openWhenClosed: true,
    uses: ['table:write', 'email:send'],
  }),
  forgotPassword: route({
    method: 'POST',
    path: '/auth/forgotPassword',
    summary: 'Sends a password reset link if the account exists; answers the same either way.',
    access: { kind: 'public', rateLimit: EMAIL_SENDING_LIMIT },
    input: forgotPasswordInput,
    output: okResponse,
    uses: ['table:write', 'email:send'],
  }),
  resetPassword: route({
    method: 'POST',
    path: '/auth/resetPassword',
    summary: 'Sets a new password with the single-use link; ends every other session.',
    access: { kind: 'public', rateLimit: LOOKUP_LIMIT },
    input: resetPasswordInput,
    output: okResponse,
    uses: [
      'table:write',
      'table:delete:emailToken',
      'table:delete:session',
      'userPool:setPassword',
      'userPool:signOutEverywhere',
    ],
  }),
  getProfile: route({
    method: 'GET',
    path: '/users/{userId}',
    summary: 'A profile for /editProfile: yourself, or (manager) an employee of your team.',
    access: { kind: 'signedIn', roles: signedIn },
    input: userIdInput,
    output: profileOutput,
    uses: ['table:read'],
  }),
  updateProfile: route({
    method: 'PUT',
    path: '/users/{userId}',
    summary: "Save /editProfile; a manager may set an employee's next-cycle budget.",
    access: { kind: 'signedIn', roles: signedIn },
    input: updateProfileInput,
    output: profileOutput,
    // A budget raise counts against the daily deposit limit and the step-up threshold.
    freshFactor: 'aboveThreshold',
    uses: ['table:write'],
  }),
  previewBudgetChange: route({
    method: 'POST',
    path: '/users/{userId}/budget/preview',
    summary:
      "Before saving an employee's next-cycle budget: whether the raise would need a fresh factor (step-up threshold); read-only.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: budgetPreviewInput,
    output: commitmentPreviewOutput,
    uses: ['table:read'],
  }),
  deleteAccount: route({
    method: 'DELETE',
    path: '/users/{userId}',
    summary: 'Soft delete (status deleted): yourself, or (manager) an employee of your team.',
    access: { kind: 'signedIn', roles: signedIn },
    input: userIdInput,
    output: profileOutput,
    uses: [
      'table:write',
      'table:delete:session',
      'userPool:disableUser',
      'userPool:signOutEverywhere',
      'stripe',
    ],
  }),
  inviteEmployees: route({
    method: 'POST',
    path: '/invitations',
    summary: 'Invite one or many e-mails (comma list) with a budget; per-address results.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: inviteEmployeesInput,
    output: inviteEmployeesOutput,
    // The budgets invited count against the daily deposit limit and the step-up threshold.
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'email:send'],
  }),
  previewInvitations: route({
    method: 'POST',
    path: '/invitations/preview',
    summary:
      "Before inviting (or the setup wizard's invitations): whether they would need a fresh factor (step-up threshold); read-only.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: inviteEmployeesInput,
    output: commitmentPreviewOutput,
    uses: ['table:read'],
  }),
  // --- Issue 28: roster import and offboarding dates ---
  importRoster: route({
    method: 'POST',
    path: '/roster/import',
    summary:
      'Roster import: every row checked again (a file with a bad row is refused whole, per line); rows starting today invited, later ones scheduled for the daily job; idempotent per team and address. With `preview: true`, read-only: whether it would need a fresh factor.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: importRosterInput,
    output: importRosterOutput,
    maxBodyBytes: 256 * 1024,
    // The whole file's budgets count against the daily deposit limit and the step-up threshold.
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'email:send'],
  }),
  setLastDay: route({
    method: 'PUT',
    path: '/users/{userId}/lastDay',
    summary:
      "Set (or clear, null) an employee's last day: the daily job removes them on it, as a manager's delete does; audited.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: setLastDayInput,
    output: lastDayOutput,
    uses: ['table:write'],
  }),
  withdrawInvitations: route({
    method: 'POST',
    path: '/invitations/withdraw',
    summary:
      "Withdraw the team's pending invitations or scheduled starts (by e-mail or Employees row id); per-address results; audited.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: withdrawInvitationsInput,
    output: withdrawInvitationsOutput,
    uses: ['table:write', 'table:delete:invitation', 'table:delete:scheduledStart'],
  }),
  finalizeSetup: route({
    method: 'POST',
    path: '/billing/setup',
    summary:
      "The setup wizard's finish: the team's billing customer and first card, billing address, cycle anchored today; optional invitations.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true, rateLimit: CARD_LIMIT },
    input: finalizeSetupInput,
    output: setupOutput,
    idempotent: true,
    // Its invitations count as POST /invitations' do.
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'email:send', 'stripe'],
  }),
  getCustomer: route({
    method: 'GET',
    path: '/billing/customer',
    summary: "The manager's cards on file (last4) and which is primary.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: z.object({}),
    output: customerOutput,
    uses: ['table:read', 'stripe'],
  }),
  addCard: route({
    method: 'POST',
    path: '/billing/cards',
    summary: 'Add a card on file from a provider token; funds members whose charge was declined before.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true, rateLimit: CARD_LIMIT },
    input: addCardInput,
    output: customerOutput,
    idempotent: true,
    freshFactor: 'always',
    uses: ['table:write', 'email:send', 'stripe'],
  }),
  updateCustomer: route({
    method: 'PUT',
    path: '/billing/customer',
    summary: 'Set the primary card.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    // Every charge goes to the primary card: choosing it is a card change like adding one.
    freshFactor: 'always',
    input: updateCustomerInput,
    output: customerOutput,
    uses: ['table:write', 'stripe'],
  }),
  deleteCard: route({
    method: 'DELETE',
    path: '/billing/cards/{cardId}',
    summary: 'Delete a card on file; only while another card remains.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: cardIdInput,
    output: customerOutput,
    freshFactor: 'always',
    uses: ['table:write', 'stripe'],
  }),
  listEmployees: route({
    method: 'GET',
    path: '/employees',
    summary: 'The Employees screen: members with balances and card state, and pending invitations.',
    access: { kind: 'signedIn', roles: ['manager'] },
    input: z.object({}),
    output: employeesOutput,
    uses: ['table:read'],
  }),
  updateSubscriptionStatus: route({
    method: 'POST',
    path: '/employees/pause',
    summary: 'Pause or unpause employees (paused: not charged or funded in later cycles).',
    access: { kind: 'signedIn', roles: ['manager'] },
    input: pauseInput,
    output: bulkResultOutput,
    // Stripe: unpausing a dormant person activates their card again.
    uses: ['table:write', 'stripe'],
  }),
  setCardStatus: route({
    method: 'POST',
    path: '/employees/cardStatus',
    summary: "Freeze (inactive) or activate employees' cards, at the issuer and in our records.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: cardStatusInput,
    output: bulkResultOutput,
    uses: ['table:write', 'stripe'],
  }),
  deleteEmployees: route({
    method: 'POST',
    path: '/employees/delete',
    summary: 'Remove employees: account deleted, card cancelled, money kept in the team pool.',
    access: { kind: 'signedIn', roles: ['manager'] },
    input: deleteEmployeesInput,
    output: bulkResultOutput,
    uses: [
      'table:write',
      'table:delete:session',
      'userPool:disableUser',
      'userPool:signOutEverywhere',
      'stripe',
    ],
  }),
  reallocateFunds: route({
    method: 'POST',
    path: '/funds/reallocate',
    summary: "Split removed employees' money evenly across chosen (or all active) employees; no fee.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: reallocateInput,
    output: moneyMovedOutput,
    idempotent: true,
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'stripe'],
  }),
  redeemFunds: route({
    method: 'POST',
    path: '/funds/redeem',
    summary: "Refund removed employees' money to the manager's card, less 15% or $5 (whichever is greater).",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: redeemInput,
    output: moneyMovedOutput,
    idempotent: true,
    freshFactor: 'always',
    uses: ['table:write', 'stripe'],
  }),
  previewReallocation: route({
    method: 'POST',
    path: '/funds/reallocate/preview',
    summary:
      'What a reallocation would give each receiver, by the same arithmetic; read-only, moves nothing.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: reallocateInput,
    output: reallocationPreviewOutput,
    openWhenClosed: true,
    uses: ['table:read'],
  }),
  previewRedemption: route({
    method: 'POST',
    path: '/funds/redeem/preview',
    summary:
      'What a redemption would return and its fee, or why it is refused (under $5); read-only, moves nothing.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: redeemInput,
    output: redemptionPreviewOutput,
    openWhenClosed: true,
    uses: ['table:read'],
  }),
  depositFunds: route({
    method: 'POST',
    path: '/funds/deposit',
    summary:
      'One-time extra deposit to chosen employees: charged at once, credited when the charge succeeds.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: depositInput,
    output: depositOutput,
    idempotent: true,
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'stripe'],
  }),
  previewDeposit: route({
    method: 'POST',
    path: '/funds/deposit/preview',
    summary:
      "What a deposit would charge the team's card in total, and today's room under the daily deposit limit; read-only, charges nothing.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: depositInput,
    output: depositPreviewOutput,
    uses: ['table:read'],
  }),
  getTeamLedger: route({
    method: 'GET',
    path: '/team/ledger',
    summary: "The team's journal: every money movement with its legs, oldest first.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: z.object({}),
    output: teamLedgerOutput,
    uses: ['table:read'],
  }),
  exportTeamPurchases: route({
    method: 'GET',
    path: '/team/purchases.csv',
    summary:
      "The team's purchases made in a month range (from/to as yyyy-mm, US Eastern), with receipt state, as an RFC 4180 CSV file.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: teamPurchasesCsvInput,
    output: fileOutput,
    responseType: 'text/csv',
    uses: ['table:read'],
  }),
  getTeamAudit: route({
    method: 'GET',
    path: '/team/audit',
    summary:
      'The audit log of the team: every manager action and every money movement, newest first, a page at a time.',
    access: { kind: 'signedIn', roles: ['manager'] },
    input: auditInput,
    output: auditOutput,
    uses: ['table:read'],
  }),
  getBalance: route({
    method: 'GET',
    path: '/me/balance',
    summary: "The employee's own card balance, money on hold, and card state.",
    access: { kind: 'signedIn', roles: ['employee'] },
    input: z.object({}),
    output: balanceOutput,
    uses: ['table:read'],
  }),
  getStatement: route({
    method: 'GET',
    path: '/me/statement',
    summary:
      "The employee's own ledger: every credit, purchase, hold, refund and reallocation with running balances.",
    access: { kind: 'signedIn', roles: ['employee'] },
    input: z.object({}),
    output: statementOutput,
    uses: ['table:read'],
  }),
  getCardKey: route({
    method: 'POST',
    path: '/me/cardKey',
    summary:
      "A short-lived key to show the employee's own card in the issuer's frame (our servers never see the number).",
    access: {
      kind: 'signedIn',
      roles: ['employee'],
      verifiedEmail: true,
      rateLimit: { limit: 30, windowSeconds: 600 },
    },
    input: cardKeyInput,
    output: cardKeyOutput,
    uses: ['table:write', 'stripe'],
  }),
  checkPurchase: route({
    method: 'GET',
    path: '/me/purchaseCheck',
    summary:
      "'Will this be approved?': the real-time authorization's rules for an amount and merchant kind on the employee's own card, now. Read-only: nothing is held.",
    // No per-user rate limit: its counter would be a write costing more than the check's
    // three reads, and would cost the route its read-only grant. The stage's throttling caps abuse.
    access: { kind: 'signedIn', roles: ['employee'] },
    input: purchaseCheckInput,
    output: purchaseCheckOutput,
    uses: ['table:read'],
  }),
  stripeWebhook: route({
    method: 'POST',
    path: '/webhooks/stripe',
    summary:
      'Stripe events: real-time card authorizations (answered in the response), captures, reversals, refunds.',
    access: { kind: 'stripeSignature' },
    input: z.unknown(),
    output: z.unknown(),
    maxBodyBytes: STRIPE_WEBHOOK_MAX_BODY_BYTES,
    uses: ['table:write', 'stripe:webhookSecret'],
  }),
  finishWalkthrough: route({
    method: 'POST',
    path: '/me/walkthrough',
    summary: 'The walkthrough tour was finished or skipped: it is not shown again (finishedWalkthrough).',
    access: { kind: 'signedIn', roles: signedIn },
    input: z.object({}),
    output: okResponse,
    openWhenClosed: true,
    uses: ['table:write'],
  }),
  getCatalogue: route({
    method: 'GET',
    path: '/catalogue',
    summary:
      'The whole shop catalogue (the shop filters it in the browser); ETag, so a repeat visit is a 304.',
    access: { kind: 'signedIn', roles: signedIn },
    input: z.object({}),
    output: catalogueOutput,
    revalidate: true,
    uses: ['table:read'],
  }),
  recordItemView: route({
    method: 'POST',
    path: '/catalogue/{itemId}/views',
    summary:
      'Someone opened a shop item: who, which item and when, kept for a year (shop analytics). Unknown items are refused.',
    // Per user: a person browsing opens a few items a minute; this stops a loop, not a shopper.
    access: { kind: 'signedIn', roles: signedIn, rateLimit: ITEM_VIEW_LIMIT },
    input: itemViewInput,
    output: itemViewOutput,
    status: 201,
    maxBodyBytes: 1024,
    uses: ['table:write'],
  }),
  getMe: route({
    method: 'GET',
    path: '/me',
    summary: 'The signed-in user: identity, role, team and status.',
    access: { kind: 'signedIn', roles: signedIn },
    input: z.object({}),
    output: meOutput,
    uses: ['table:read'],
  }),
  listPurchases: route({
    method: 'GET',
    path: '/purchases',
    summary:
      "Purchase history, newest first, a page at a time: an employee's own purchases, or a manager's whole team with each employee's name; filtered by team months (from, to), person, skill area, media, merchant or receipts awaiting (Insights' links).",
    access: { kind: 'signedIn', roles: signedIn },
    input: listPurchasesInput,
    output: listPurchasesOutput,
    uses: ['table:read'],
  }),
  createReceiptUpload: route({
    method: 'POST',
    path: '/purchases/{purchaseId}/receipt/upload',
    summary:
      "A presigned POST for the employee's own purchase's receipt (key chosen here; type and at most 150,000 bytes pinned).",
    access: { kind: 'signedIn', roles: ['employee'] },
    input: receiptUploadInput,
    output: receiptUploadOutput,
    uses: ['table:read', 'receipts:write'],
  }),
  confirmReceipt: route({
    method: 'POST',
    path: '/purchases/{purchaseId}/receipt',
    summary:
      'Checks the uploaded receipt by its bytes (size, type, image structure) and records it with its title; a refused file is deleted.',
    access: { kind: 'signedIn', roles: ['employee'] },
    input: confirmReceiptInput,
    output: confirmReceiptOutput,
    uses: ['table:write', 'receipts:read', 'receipts:write'],
  }),
  getReceiptUrl: route({
    method: 'GET',
    path: '/purchases/{purchaseId}/receipt',
    summary:
      "A one-minute presigned GET of a purchase's receipt, for its employee and their manager (the manager's look marks it seen).",
    access: { kind: 'signedIn', roles: signedIn },
    input: purchaseIdInput,
    output: receiptUrlOutput,
    uses: ['table:write', 'receipts:read'],
  }),
  getSubscription: route({
    method: 'GET',
    path: '/subscription',
    summary:
      "The team's subscription (running, suspended or closed), what closing would do (the money left, the redemption fee, the cards cancelled), and a page of its payments: what the card on file was charged and refunded, newest first.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: subscriptionInput,
    output: subscriptionPageOutput,
    uses: ['table:read'],
  }),
  updateTeamTimeZone: route({
    method: 'PUT',
    path: '/team/timeZone',
    summary:
      "Set the team's time zone: the day every date is printed in (screens, e-mails, CSVs, invoices, deadlines).",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: teamTimeZoneInput,
    output: teamTimeZoneOutput,
    uses: ['table:write'],
  }),
  listInvoices: route({
    method: 'GET',
    path: '/invoices',
    summary:
      "Every invoice (a charge to the card on file) and credit note (a refund to it) of the manager's team, newest first: number, date, total.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: z.object({}),
    output: invoicesOutput,
    uses: ['table:read'],
  }),
  getInvoicePdf: route({
    method: 'GET',
    path: '/invoices/{invoiceNumber}/pdf',
    summary:
      "One of the team's invoices or credit notes as a PDF, rendered from the stored invoice (the same bytes every time).",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: invoiceNumberInput,
    output: fileOutput,
    responseType: 'application/pdf',
    uses: ['table:read'],
  }),
  // --- Accounting export (issue 26) ---------------------------------------
  exportAccounting: route({
    method: 'GET',
    path: '/exports/accounting',
    summary:
      "One month of the team's calendar (month=yyyy-mm, not in the future) of money movements as manual journals, summed per movement kind per day, in QuickBooks Online's or Xero's journal import CSV (format=quickbooks|xero). docs/accounting-export.md.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: accountingExportInput,
    output: fileOutput,
    responseType: 'text/csv',
    uses: ['table:read'],
  }),
  // --- Insights (issue 26) ----------------------------------------------------
  getInsights: route({
    method: 'GET',
    path: '/insights',
    summary:
      "The team's insights over whole months of its calendar (from, to): funded, charged, spent, utilisation, money on cards and in the pool, redemptions, spend by skill area, media type, merchant and month, receipts outstanding, the next charge and fund requests; read from the aggregates the ledger keeps.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: insightsQuery,
    output: insightsAnswer,
    uses: ['table:read'],
  }),
  getInsightsPeople: route({
    method: 'GET',
    path: '/insights/people',
    summary:
      'The people the Insights page shows: who spent most over the period, and who has not spent for 3 months or is heading for dormancy (how many, and the first of each list).',
    access: { kind: 'signedIn', roles: ['manager'] },
    input: insightsQuery,
    output: insightsPeopleAnswer,
    uses: ['table:read'],
  }),
  getInsightsPeopleList: route({
    method: 'GET',
    path: '/insights/people/all',
    summary:
      "One of the Insights page's people lists in full, for its CSV: everyone who spent in the period, or everyone who has not spent for 3 months.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: insightsPeopleListQuery,
    output: insightsPeopleListAnswer,
    uses: ['table:read'],
  }),
  getMySpend: route({
    method: 'GET',
    path: '/me/spend',
    summary: "The employee's own spend by skill area, month by month, and what is left to spend this month.",
    access: { kind: 'signedIn', roles: ['employee'] },
    input: z.object({}),
    output: mySpendAnswer,
    uses: ['table:read'],
  }),
  setPurchaseSkill: route({
    method: 'PUT',
    path: '/purchases/{purchaseId}/skill',
    summary:
      "Sets a purchase's skill area and media type: the employee their own, a manager their team's (audited). Its net amount moves between areas in the insights once, however the changes race.",
    access: { kind: 'signedIn', roles: signedIn },
    input: purchaseIdInput.extend(purchaseSkillInput.shape),
    output: purchaseRow,
    uses: ['table:write'],
  }),
  // --- Monthly e-mails (issue 26, nudges) ------------------------------------
  unsubscribeEmail: route({
    method: 'POST',
    path: '/email/unsubscribe',
    summary:
      "Stops a monthly e-mail (nudge or digest) with its link's token, signed out: the mail client's RFC 8058 one-click POST or the /unsubscribe page's button. No GET: a mail scanner opening a link changes nothing.",
    access: { kind: 'public', rateLimit: UNSUBSCRIBE_LIMIT },
    input: unsubscribeInput,
    output: unsubscribeOutput,
    acceptsForm: true,
    uses: ['table:write'],
  }),
  // --- Fund requests (issue 27) ---------------------------------------------
  // Two routes, not one per action: the API stack is at CloudFormation's 500
  // resources (7 a route); docs/decisions.md "Fund requests: two routes".
  listRequests: route({
    method: 'GET',
    path: '/requests',
    summary:
      "Fund requests, newest first: an employee's own, or the manager's team's (with each name, and the team's rules); `state` filters, `requestId` answers that one only (404 if not theirs).",
    access: { kind: 'signedIn', roles: signedIn },
    input: requestsQuery,
    output: requestsAnswer,
    uses: ['table:read'],
  }),
  actOnRequest: route({
    method: 'POST',
    path: '/requests',
    summary:
      "One action on fund requests: `ask` and `cancel` (employee), `approve` (one or several, each an extra deposit charged to the team's card, once however often approved), `decline` and `setRules` (manager; the rules need a fresh factor).",
    access: { kind: 'signedIn', roles: signedIn, verifiedEmail: true },
    input: requestAction,
    output: requestActionAnswer,
    idempotent: true,
    freshFactor: 'aboveThreshold',
    uses: ['table:write', 'email:send', 'stripe'],
  }),
  // --- Provisioning (SCIM, issue 28) ---
  getProvisioning: route({
    method: 'GET',
    path: '/provisioning',
    summary:
      "The team's provisioning: the SCIM base address, the budget of people the identity provider adds, and the tokens (never the tokens themselves).",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: z.object({}),
    output: provisioningOutput,
    uses: ['table:read'],
  }),
  createProvisioningToken: route({
    method: 'POST',
    path: '/provisioning/tokens',
    summary:
      'Makes a named provisioning token for the team and shows it once (only its hash is kept). Step-up: the token lets an identity provider add people within the daily limit.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: createProvisioningTokenInput,
    output: createdProvisioningTokenOutput,
    status: 201,
    freshFactor: 'always',
    uses: ['table:write'],
  }),
  revokeProvisioningToken: route({
    method: 'DELETE',
    path: '/provisioning/tokens/{tokenId}',
    summary: "Revokes one of the team's provisioning tokens: its next call is refused.",
    access: { kind: 'signedIn', roles: ['manager'] },
    input: provisioningTokenIdInput,
    output: provisioningOutput,
    // Revoking stops access: a closed team may still shut its identity provider out.
    openWhenClosed: true,
    uses: ['table:write'],
  }),
  updateProvisioningSettings: route({
    method: 'PUT',
    path: '/provisioning/settings',
    summary:
      'Sets the monthly budget of people the identity provider adds, and the budgets some departments map to. Step-up: these are the budgets it commits the card to.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: provisioningSettingsInput,
    output: provisioningOutput,
    freshFactor: 'always',
    uses: ['table:write'],
  }),
  scimServiceProviderConfig: route({
    method: 'GET',
    path: '/scim/v2/ServiceProviderConfig',
    summary: 'SCIM: what this service provider supports (RFC 7643 5).',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimObjectInput,
    output: scimOutput,
    uses: ['table:write'],
  }),
  scimResourceTypes: route({
    method: 'GET',
    path: '/scim/v2/ResourceTypes',
    summary: 'SCIM: the resource types served (User).',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimObjectInput,
    output: scimOutput,
    uses: ['table:write'],
  }),
  scimSchemas: route({
    method: 'GET',
    path: '/scim/v2/Schemas',
    summary: 'SCIM: the User and enterprise User attributes kept.',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimObjectInput,
    output: scimOutput,
    uses: ['table:write'],
  }),
  scimListUsers: route({
    method: 'GET',
    path: '/scim/v2/Users',
    summary:
      "SCIM: the team's people the identity provider created, by `userName eq` or `externalId eq` filter, a page at a time (startIndex, count).",
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimListInput,
    output: scimOutput,
    uses: ['table:write'],
  }),
  scimGetUser: route({
    method: 'GET',
    path: '/scim/v2/Users/{id}',
    summary: 'SCIM: one person the identity provider created, invited or joined.',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimIdInput,
    output: scimOutput,
    uses: ['table:write'],
  }),
  scimCreateUser: route({
    method: 'POST',
    path: '/scim/v2/Users',
    summary:
      "SCIM: adds a person: an invitation at the team's provisioning budget, counted against the daily limit (refused, nobody is invited). 409 for a userName, address or externalId the team's SCIM users already have.",
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimObjectInput,
    output: scimOutput,
    status: 201,
    uses: ['table:write', 'email:send'],
  }),
  scimReplaceUser: route({
    method: 'PUT',
    path: '/scim/v2/Users/{id}',
    summary:
      'SCIM: replaces a person (names, externalId, active). active false removes them as a manager does; true invites again one who had not joined, or restores a member removed since the last cycle day.',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimIdInput,
    output: scimOutput,
    // Removal is the manager's delete (services/employees): what deleteEmployees uses, and withdrawing.
    uses: REACTIVATION_USES,
  }),
  scimPatchUser: route({
    method: 'PATCH',
    path: '/scim/v2/Users/{id}',
    summary:
      "SCIM: changes a person (Okta's and Entra's PATCH forms). active false removes them as a manager does; true invites again one who had not joined, or restores a member removed since the last cycle day.",
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimIdInput,
    output: scimOutput,
    // Removal is the manager's delete (services/employees): what deleteEmployees uses, and withdrawing.
    uses: REACTIVATION_USES,
  }),
  scimDeleteUser: route({
    method: 'DELETE',
    path: '/scim/v2/Users/{id}',
    summary:
      'SCIM: removes a person as a manager does (card cancelled, money to the pool, billing stops) or withdraws their invitation. 204.',
    access: { kind: 'scimToken', rateLimit: SCIM_LIMIT },
    input: scimIdInput,
    output: scimOutput,
    status: 204,
    // Removal is the manager's delete (services/employees): what deleteEmployees uses, and withdrawing.
    uses: REMOVAL_USES,
  }),
  suspendSubscription: route({
    method: 'POST',
    path: '/subscription/suspend',
    summary:
      'Suspends the subscription: no monthly charge, no funding, no deposits; cards keep what they hold.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: z.object({}),
    output: subscriptionOutput,
    uses: ['table:write', 'email:send'],
  }),
  resumeSubscription: route({
    method: 'POST',
    path: '/subscription/resume',
    summary:
      'Resumes a suspended subscription: charged again from the next cycle day (suspended months are not caught up); waiting members are funded now.',
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: z.object({}),
    output: subscriptionOutput,
    uses: ['table:write', 'email:send', 'stripe'],
  }),
  closeSubscription: route({
    method: 'POST',
    path: '/subscription/close',
    summary:
      "Closes the subscription: every card cancelled, nobody charged again, the money left redeemed to the card on file (less the fee) or kept; the team's records stay, read-only.",
    access: { kind: 'signedIn', roles: ['manager'], verifiedEmail: true },
    input: closeSubscriptionInput,
    output: subscriptionOutput,
    idempotent: true,
    // A retry after an interruption finishes the same close; a finished close answers as it is.
    openWhenClosed: true,
    // It cancels every card and may refund the whole pool: as much a money move as a redemption.
    freshFactor: 'always',
    // Closing withdraws the team's pending invitations (a closed team takes nobody new).
    uses: ['table:write', 'table:delete:invitation', 'email:send', 'stripe'],
  }),
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type OperationId = keyof Routes;
export type RouteInput<Op extends OperationId> = z.input<Routes[Op]['input']>;
export type RouteOutput<Op extends OperationId> = z.output<Routes[Op]['output']>;

export const operationIds = Object.keys(routes) as OperationId[];

/** Repository-relative path of the file that handles an operation. */
export function handlerFile(operationId: OperationId): string {
  const access: Access = routes[operationId].access;
  const folder = access.kind === 'stripeSignature' ? 'webhooks' : 'http';
  return `lambdas/src/${folder}/${operationId}.ts`;
}

/** Headers the browser may send cross-origin, for API Gateway CORS and the local gateway alike. */
export const corsPolicy = {
  allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'if-none-match'],
  /** Response headers the browser's code may read (the catalogue's version). */
  exposeHeaders: ['etag'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const,
  maxAgeSeconds: 600,
};

/** Splits `/a/{id}/b` into segments and says which are parameters. */
/**
 * A path parameter as sent, decoded; a malformed escape (`%ZZ`, invalid UTF-8)
 * is kept as sent: it names nothing, so the route answers with its own 400 or
 * 404 instead of the gateway failing (found by test/integration/routeFuzz.test.ts).
 */
function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function matchPath(template: string, actual: string): Record<string, string> | undefined {
  const t = template.split('/').filter(Boolean);
  const a = actual.split('/').filter(Boolean);
  if (t.length !== a.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] as string;
    const val = a[i] as string;
    if (seg.startsWith('{') && seg.endsWith('}')) params[seg.slice(1, -1)] = decodeSegment(val);
    else if (seg !== val) return undefined;
  }
  return params;
}
