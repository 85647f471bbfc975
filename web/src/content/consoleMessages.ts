/**
 * Words of the signed-in screens. The spec's own texts (§2, §4, §5, §8) are
 * kept word for word and marked "spec"; the rest is ours, where the spec is
 * silent. Every notification of the manager console takes its text from here.
 */

export const employeeMessages = {
  /** spec §8 (its spelling). */
  loadFailed: 'Error loading employes',
  deleted: 'Successfully deleted employees',
  deleteFailed: (detail: string) => `There was an issue deleting employees ${detail}`,
  cardStatusChanged: 'Card status change successfully!',
  cardStatusFailed: (detail: string) => `Error on updating card status: ${detail}`,
  reallocated: 'Successfully reallocated amount!',
  reallocateFailed: (detail: string) => `Error on reallocation: ${detail}`,
  /** spec §5 "Reallocation". */
  selectReceiver: 'Please select at least one employee to receive the reallocation',
  paused: 'Paused users successfully!',
  unpaused: 'Unpaused users successfully!',
  actionFailed: (detail: string) => `Error on performing action: ${detail}`,
  /** Ours: redemption and deposits have no spec text. */
  redeemed: 'Redeemed successfully!',
  redeemFailed: (detail: string) => `Error on redemption: ${detail}`,
  deposited: 'Deposit sent successfully!',
  depositFailed: (detail: string) => `Error on deposit: ${detail}`,
  /** Ours: withdrawing invitations has no spec text; it follows the others. */
  withdrawn: (count: number) => (count === 1 ? 'Invitation withdrawn' : `${count} invitations withdrawn`),
  withdrawFailed: (detail: string) => `Error on withdrawing invitations: ${detail}`,
  /** Ours: sending an invitation again from its row, with the budget it has. */
  resent: (email: string) => `Invitation sent again to ${email}`,
  /** The server's daily cap on invitation e-mails to one address held this one back. */
  resendHeld: (email: string) =>
    `${email} has had today's invitation emails already, so none was sent. Send it again tomorrow.`,
  /** Signed up before the withdrawal reached them: a member now, left as they are. */
  alreadyJoined: (emails: string) => `Already joined, so not withdrawn: ${emails}`,
} as const;

export const inviteMessages = {
  /** spec §8. */
  invited: 'Employee invited successfully',
  failed: (detail: string) => `Error on inviting employee: ${detail}`,
} as const;

export const cardMessages = {
  /** spec §8. */
  primaryChanged: 'Change primary card successfully!',
  deleted: 'Deleted card successfully!',
  added: 'Added card successfully!',
  addFailed: (detail: string) => `Error upon adding card ${detail}`,
  /** Ours: the spec has no words for these failures; they follow addFailed. */
  primaryFailed: (detail: string) => `Error upon changing primary card ${detail}`,
  deleteFailed: (detail: string) => `Error upon deleting card ${detail}`,
} as const;

export const setupMessages = {
  /** spec §4 "Setup wizard" / §8: the title, then the text. */
  failedTitle: 'Try again',
  failed: 'There was an error setting up your account',
} as const;

export const copyMessages = {
  /** spec §8, shown 1 second. */
  copied: 'Copied!',
} as const;

export const declineMessages = {
  /** Ours (decisions.md "decline reasons ... shown at once"); the reason itself comes from the server. */
  title: (amount: string, merchant: string) => `Purchase declined: ${amount} at ${merchant}`,
} as const;

/** The virtual card dialog (spec §2 "Virtual card dialog"). */
export const cardDialogMessages = {
  title: 'Virtual Card',
  /** spec §2. */
  frozenTitle: 'Virtual Card Frozen',
  /** What lifts the freeze, by its reason (spendPolicy.freezeReason). */
  frozenNotice: {
    missingReceipt:
      'Your card is frozen because a receipt is missing. Upload your receipts on Purchase History and it unfreezes by itself.',
    manager: 'Your manager froze your card. Please contact your manager to have it activated.',
    dormant:
      'Your card was frozen after 13 months without a purchase. Please contact your manager to have it activated.',
  },
  cancelled: 'This card has been cancelled. Please contact your manager.',
  pending: 'Your card is being issued. It appears here as soon as your first budget arrives.',
  usedFor:
    'Use it for learning: bookstores, e-books and audiobooks, online courses and training, schools and colleges, and learning apps and software.',
  /** Where no issuer frame can be shown: no publishable key in config.json, or Stripe.js failed (decisions.md). */
  frameUnavailable: 'The card number cannot be shown here yet. Please contact support to get it.',
  lastDecline: 'Last declined purchase',
} as const;

export const purchaseCheckMessages = {
  title: 'Will this be approved?',
  intro: 'Check a purchase before you make it. Nothing is charged or held.',
  approved: (amount: string) => `Yes: ${amount} would be approved now.`,
  declined: 'No, this would be declined',
  /** A shop item the card cannot pay for as it is now, said when the item opens (before any Check). */
  itemDeclined: 'Your card would decline this purchase',
  amountInvalid: 'Enter an amount in dollars, such as 12.50',
  kindRequired: 'Choose a kind of merchant',
} as const;
