/**
 * Which bulk actions the Employees screen offers for a selection, and whom each
 * acts on (spec §4 "Employee status" and "Card status"). Pure, so the rules are
 * unit-tested (test/unit/bulkActions.test.ts); the server checks them again.
 *
 * - Pause/unpause: 'unpause' if any selected person is paused, otherwise
 *   'pause'; hidden if all are deleted.
 * - Freeze/activate: 'activate' if any selected card is inactive, otherwise
 *   'freeze'; not offered for invited or deleted people. Either acts only on
 *   the cards it changes (activate: the inactive ones; freeze: the active ones).
 *   An activation that includes a card frozen for an overdue receipt asks first
 *   (receiptFrozenToActivate): the next daily check freezes it again.
 * - Delete: only for active or paused people; offered if any selected is not deleted.
 * - Reallocate (and redeem, ours): only when a selected person is deleted or
 *   dormant and has remaining budget above 0.
 * - Withdraw invitation (ours): the selected invited people, whatever else is
 *   selected.
 *
 * Invited people have no account yet (no card, nothing to pause or delete), so
 * withdrawing their invitation is the only action that targets them; an action
 * with no target is hidden (docs/decisions.md).
 */

export type EmployeeStatus = 'invited' | 'active' | 'paused' | 'deleted';
export type CardStatus = 'active' | 'inactive' | 'canceled' | 'pending';

export interface SelectedEmployee {
  userId: string;
  status: EmployeeStatus;
  cardStatus: CardStatus;
  remainingBudgetCents: number;
  /** Dormant: card inactive and paused after 13 months without a purchase. */
  dormancy?: { stage: string };
  /** Why the card is frozen ('missingReceipt': a receipt is overdue). */
  freezeReasons?: readonly string[];
}

export interface BulkActions {
  pause: { action: 'pause' | 'unpause'; userIds: string[] } | null;
  card: { status: 'active' | 'inactive'; userIds: string[] } | null;
  delete: { userIds: string[] } | null;
  reallocate: { deletedUserIds: string[] } | null;
  redeem: { deletedUserIds: string[] } | null;
  /** The Employees rows of pending invitations (`invite:<email>`), as POST /invitations/withdraw takes them. */
  withdraw: { userIds: string[] } | null;
}

const isMember = (e: SelectedEmployee) => e.status === 'active' || e.status === 'paused';

export function bulkActions(selected: readonly SelectedEmployee[]): BulkActions {
  const members = selected.filter(isMember);
  const ids = (list: readonly SelectedEmployee[]) => list.map((e) => e.userId);

  const pause =
    members.length === 0
      ? null
      : {
          action: members.some((e) => e.status === 'paused') ? ('unpause' as const) : ('pause' as const),
          userIds: ids(members),
        };

  // A card that can be switched: issued and not cancelled. The action targets
  // only the cards it changes (activate: the inactive ones; freeze: the active
  // ones), so its dialog and request never name a card already in that state.
  const withCard = members.filter((e) => e.cardStatus === 'active' || e.cardStatus === 'inactive');
  const target = withCard.some((e) => e.cardStatus === 'inactive')
    ? ('active' as const)
    : ('inactive' as const);
  const changed = withCard.filter((e) => e.cardStatus !== target);
  const card = changed.length === 0 ? null : { status: target, userIds: ids(changed) };

  const remove = members.length === 0 ? null : { userIds: ids(members) };

  // Removed people's money, and dormant people's (moved without deleting them first).
  const released = (e: SelectedEmployee) => e.status === 'deleted' || e.dormancy?.stage === 'dormant';
  const withMoney = selected.filter((e) => released(e) && e.remainingBudgetCents > 0);
  const pooled = withMoney.length === 0 ? null : { deletedUserIds: ids(withMoney) };

  const invited = selected.filter((e) => e.status === 'invited');
  const withdraw = invited.length === 0 ? null : { userIds: ids(invited) };

  return { pause, card, delete: remove, reallocate: pooled, redeem: pooled, withdraw };
}

/** People who can receive a reallocation: members of the team who are neither removed nor dormant. */
export function reallocationReceivers<T extends SelectedEmployee>(rows: readonly T[]): T[] {
  return rows.filter((e) => isMember(e) && e.dormancy?.stage !== 'dormant');
}

/**
 * The people a bulk Activate would switch whose card is frozen for an overdue
 * receipt: activating lifts that freeze only until the next daily receipt check
 * (docs/decisions.md "Receipt deadline"), so the screen names them and asks first.
 * Empty when the bulk card action is Freeze or not offered.
 */
export function receiptFrozenToActivate<T extends SelectedEmployee>(selected: readonly T[]): T[] {
  const card = bulkActions(selected).card;
  if (card?.status !== 'active') return [];
  return selected.filter(
    (e) => card.userIds.includes(e.userId) && (e.freezeReasons ?? []).includes('missingReceipt'),
  );
}
