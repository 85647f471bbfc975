/**
 * The team pool: where a removed employee's money waits for the manager to
 * reallocate or redeem it. Used by account deletion and by the money operations.
 */
import { cardAccount, type PoolReason, poolAccount, toPool } from '@shared/domain/ledger';
import { newId } from '../../adapters/clock';
import { setCardStatus as setIssuerCardStatus } from '../../adapters/stripe';
import { type CardRecord, getCard, updateCard } from '../../data/cards';
import { balanceOf, InsufficientFunds, post, statement } from '../../data/ledger';
import type { UserRecord } from '../../data/users';

/**
 * Moves what an employee's card can spend into the team pool, the entry saying
 * why (`reason`). Holds stay until their purchases settle; a later sweep moves
 * anything released.
 */
export async function sweepToPool(user: UserRecord, reason: PoolReason): Promise<void> {
  const amount = await balanceOf(cardAccount(user.userId));
  if (amount <= 0) return;
  try {
    await post(
      toPool({
        entryId: `POOL#${user.userId}#${newId()}`,
        teamId: user.teamId,
        userId: user.userId,
        amountCents: amount,
        reason,
      }),
    );
  } catch (error) {
    if (!(error instanceof InsufficientFunds)) throw error; // a concurrent sweep got there first
  }
}

/** After an employee's account is deleted: cancel the card, keep the money in the team pool. */
export async function retireEmployeeMoney(user: UserRecord): Promise<void> {
  const card: CardRecord | undefined = user.cardId ? await getCard(user.cardId) : undefined;
  if (card && card.status !== 'canceled') {
    await setIssuerCardStatus(card.cardId, 'canceled');
    await updateCard(card.cardId, { status: 'canceled' });
  }
  // The record was read before the deletion, so its status does not say why: the caller does.
  await sweepToPool(user, 'removed');
}

/**
 * What of the pool came from one removed employee and is still there, and the
 * last pool entry of theirs. Reallocation and redemption derive their entry ids
 * from that entry: two requests that see the same pool post the same entry, so
 * however many race or retry, the money leaves the pool once.
 */
export async function pooledFrom(
  teamId: string,
  userId: string,
): Promise<{ cents: number; stateId: string | undefined }> {
  const lines = (await statement(poolAccount(teamId))).filter((l) => l.references?.user === userId);
  return {
    cents: lines.reduce((s, l) => s + l.amountCents, 0),
    stateId: lines.at(-1)?.entryId,
  };
}
