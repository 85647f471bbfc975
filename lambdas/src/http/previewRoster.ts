/**
 * POST /roster/preview - manager with a verified e-mail. Read-only: whether importing these rows
 * would need a fresh factor (the step-up threshold), counted as the import counts it.
 */
import { httpHandler } from '../platform/http';
import { previewRoster } from '../services/employees';

export const handler = httpHandler('previewRoster', ({ actor, input, now }) =>
  previewRoster(actor, input, now),
);
