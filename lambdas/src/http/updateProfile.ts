/** PUT /users/{userId} - signed in: yourself, or (manager) an employee of your team; budget only by the manager. */
import { httpHandler } from '../platform/http';
import { updateProfile } from '../services/accounts';

export const handler = httpHandler('updateProfile', ({ actor, input, now }) =>
  updateProfile(actor, input, now),
);
