/** DELETE /users/{userId} - signed in: yourself, or (manager) an employee of your team. Soft delete; audited. */
import { httpHandler } from '../platform/http';
import { deleteAccount } from '../services/accounts';

export const handler = httpHandler('deleteAccount', ({ actor, input, now }) =>
  deleteAccount(actor, input.userId, now),
);
