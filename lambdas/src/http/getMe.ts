/** GET /me - any signed-in role. The caller's own profile; never anyone else's. */
import { AppError } from '../../../shared/src/errors';
import { getUser } from '../data/users';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('getMe', async ({ actor }) => {
  const user = await getUser(actor.userId);
  if (!user) throw new AppError('NOT_FOUND', 'No such user.');
  return user;
});
