/**
 * Shop analytics: someone opened an item. Who comes from the token, when from
 * the clock, which from the path; only items in the catalogue are recorded, so
 * the insights never count ids that a client made up.
 */
import { AppError } from '@shared/errors';
import { newId } from '../../adapters/clock';
import { catalogueItemExists } from '../../data/catalogue';
import { putItemView } from '../../data/itemViews';
import type { Actor } from '../../platform/auth';

export async function recordItemView(actor: Actor, itemId: string, now: Date): Promise<{ viewedAt: string }> {
  if (!(await catalogueItemExists(itemId))) {
    throw new AppError('NOT_FOUND', 'That item is not in the catalogue.');
  }
  const viewedAt = now.toISOString();
  await putItemView({
    viewId: newId(now),
    teamId: actor.teamId,
    userId: actor.userId,
    role: actor.role,
    itemId,
    viewedAt,
  });
  return { viewedAt };
}
