/**
 * POST /roster/import - manager with a verified e-mail. Checks every row again and refuses a file
 * with any bad row (400, messages per line); then invites rows starting today and schedules the
 * rest; idempotent per team and address. The file's budgets count against the daily limit and
 * step-up threshold. Invitation e-mails; audited.
 */
import { httpHandler } from '../platform/http';
import { importRoster } from '../services/employees';

export const handler = httpHandler('importRoster', ({ actor, input, now }) =>
  importRoster(actor, input, now),
);
