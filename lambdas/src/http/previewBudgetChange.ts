/**
 * POST /users/{userId}/budget/preview - manager, for an employee of their team (404 for anyone else, as
 * the save). Read-only: whether saving this next-cycle budget would pass the step-up threshold (counted as
 * updateProfile counts it), so /editProfile asks for a fresh factor before saving rather than after a refusal.
 */
import { httpHandler } from '../platform/http';
import { previewBudgetChange } from '../services/accounts';

export const handler = httpHandler('previewBudgetChange', ({ actor, input, now }) =>
  previewBudgetChange(actor, input, now),
);
