/** POST /employees/delete - manager. Removes employees of the team (all or none); cards cancelled, money pooled. */
import { httpHandler } from '../platform/http';
import { deleteEmployees } from '../services/employees';

export const handler = httpHandler('deleteEmployees', ({ actor, input, now }) =>
  deleteEmployees(actor, input.userIds, now),
);
