/** POST /employees/delete - manager. Soft-deletes employees of the team (all or none); cards cancelled, money pooled. */
import { AppError } from '../../../shared/src/errors';
import { getUser } from '../data/users';
import { httpHandler } from '../platform/http';
import { deleteAccount } from '../services/profiles';

export const handler = httpHandler('deleteEmployees', async ({ actor, input, now }) => {
  const ids = [...new Set(input.userIds)];
  // Check every target first, so naming someone else's person changes nothing at all.
  const targets = await Promise.all(ids.map((id) => getUser(id)));
  if (targets.some((t) => !t || t.teamId !== actor.teamId || t.role !== 'employee')) {
    throw new AppError('NOT_FOUND', 'No such person on your team.');
  }
  const results: { userId: string; status: string }[] = [];
  for (const userId of ids)
    results.push({ userId, status: (await deleteAccount(actor, userId, now)).status });
  return { results };
});
