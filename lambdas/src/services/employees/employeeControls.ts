/**
 * A manager's switches on the employees of their own team (spec §2 Employees
 * screen, §4 states): pause and unpause (no renewal while paused), freeze and
 * activate the card, delete. Bulk requests are all or nothing as to whose
 * people they name; each change is audited.
 */
import { setCardStatus as setIssuerCardStatus } from '../../adapters/stripe';
import { setUserFields } from '../../data/accounts';
import { type CardRecord, getCard, updateCard } from '../../data/cards';
import { startDormancyClock } from '../../data/dormancy';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { deleteAccount, type Restored, restoreMember } from '../accounts';
import { audit, teamEmployees } from '../team';

type Result = { userId: string; status: string; message?: string };

/**
 * A manager reactivating someone (unpause, or activate the card) restarts their
 * dormancy clock; for a dormant person it also lifts the dormancy freeze (and
 * the card is active again when no other reason remains).
 */
async function reactivated(user: UserRecord, now: Date) {
  if (user.dormancy?.deactivatedAt && user.cardId) {
    const card = await getCard(user.cardId);
    if (card?.freeze?.dormant && card.status !== 'canceled') {
      const { dormant: _lifted, ...rest } = card.freeze;
      const others = Object.values(rest).some(Boolean);
      if (!others && card.status !== 'active') await setIssuerCardStatus(card.cardId, 'active');
      await updateCard(card.cardId, { status: others ? card.status : 'active', freeze: rest });
    }
  }
  await startDormancyClock(user, now.toISOString());
}

/** Whether the person's pause is dormancy's own: deactivated, and not paused by a manager before. */
function pausedByDormancy(user: UserRecord): boolean {
  return Boolean(user.dormancy?.deactivatedAt) && !user.dormancy?.keptManagerPause;
}

// --- Pause, freeze ------------------------------------------------------------

export async function setPaused(actor: Actor, userIds: string[], action: 'pause' | 'unpause', now: Date) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    const userId = user.userId;
    if (user.status === 'deleted') results.push({ userId, status: 'skipped', message: 'Deleted' });
    else {
      const status = action === 'pause' ? 'paused' : 'active';
      if (status === 'active') await reactivated(user, now);
      if (user.status !== status) {
        await setUserFields(userId, { status });
        await audit(actor, action === 'pause' ? 'employee.paused' : 'employee.unpaused', now, {
          targetId: userId,
          before: { status: user.status },
          after: { status },
        });
      }
      results.push({ userId, status });
    }
  }
  return { results };
}

/**
 * A card already as asked: active with no freeze reason left, or already frozen
 * by the manager (a receipt or dormancy freeze alone still gains the manager's).
 */
function alreadySo(card: CardRecord, status: 'active' | 'inactive'): boolean {
  if (status === 'inactive') return card.status === 'inactive' && card.freeze?.manager === true;
  return card.status === 'active' && !Object.values(card.freeze ?? {}).some(Boolean);
}

/** Freeze (inactive) or activate a card: the issuer and our record always agree. */
export async function setCardStatus(
  actor: Actor,
  userIds: string[],
  status: 'active' | 'inactive',
  now: Date,
) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    const userId = user.userId;
    const card = user.cardId ? await getCard(user.cardId) : undefined;
    if (user.status === 'deleted' || !card || card.status === 'canceled') {
      results.push({ userId, status: 'skipped', message: 'No active card' });
    } else if (alreadySo(card, status)) {
      // Nothing to change, so nothing to record: the log says what happened, not what was asked.
      results.push({ userId, status, message: 'Unchanged' });
    } else {
      await setIssuerCardStatus(card.cardId, status);
      // A manager's activation lifts every freeze; a manager's freeze is theirs to lift.
      await updateCard(card.cardId, {
        status,
        freeze: status === 'inactive' ? { ...card.freeze, manager: true } : {},
      });
      await audit(actor, status === 'inactive' ? 'card.frozen' : 'card.activated', now, {
        targetId: userId,
        before: { status: card.status },
        after: { status },
      });
      if (status === 'active') {
        await startDormancyClock(user, now.toISOString());
        // A pause that came with dormancy's freeze ends with it, and says so in the log (billing resumes).
        // A manager's own pause from before stays: activating a card never restarts billing by itself.
        if (user.status === 'paused' && pausedByDormancy(user)) {
          await setUserFields(userId, { status: 'active' });
          await audit(actor, 'employee.unpaused', now, {
            targetId: userId,
            before: { status: 'paused' },
            after: { status: 'active' },
          });
        }
      }
      results.push({ userId, status });
    }
  }
  return { results };
}

/** Removes employees of the team: all or none (naming anyone else's people changes nothing). */
export async function deleteEmployees(actor: Actor, userIds: string[], now: Date) {
  const results: Result[] = [];
  for (const user of await teamEmployees(actor, userIds)) {
    results.push({ userId: user.userId, status: (await deleteAccount(actor, user.userId, now)).status });
  }
  return { results };
}

/**
 * Brings back an employee of the team removed since its last billing day
 * (issue 28): restoreMember does it once however often it is asked; the one
 * call that finishes it writes 'employee.reactivated' as `actor`. Refused
 * (RULE_VIOLATED, with the reason) after the billing day.
 */
export async function reactivateEmployee(actor: Actor, userId: string, now: Date): Promise<Restored> {
  const [user] = (await teamEmployees(actor, [userId])) as [UserRecord];
  return restoreMember(user, now, ({ cardId, pooledCents, returnedCents }) => ({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'employee.reactivated',
    targetId: userId,
    before: { status: 'deleted' },
    after: { status: 'active', ...(cardId ? { cardId } : {}), pooledCents, returnedCents },
    at: now.toISOString(),
  }));
}
