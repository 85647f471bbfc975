/**
 * POST /invitations/preview - verified manager. Read-only: whether inviting these addresses at this budget
 * would pass the step-up threshold (counted as inviteEmployees counts it), so the web app asks for a fresh
 * factor before sending the invitations (or the setup wizard's) rather than after a refusal.
 */
import { httpHandler } from '../platform/http';
import { previewInvitations } from '../services/employees';

export const handler = httpHandler('previewInvitations', ({ actor, input, now }) =>
  previewInvitations(actor, input.emails, input.budget, now),
);
