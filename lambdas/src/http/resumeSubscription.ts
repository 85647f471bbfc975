/** POST /subscription/resume - verified manager. Charged again from the next cycle day; waiting members funded now. */
import { httpHandler } from '../platform/http';
import { resumeSubscription } from '../services/billing';

export const handler = httpHandler('resumeSubscription', ({ actor, now, log }) =>
  resumeSubscription(actor, now, log),
);
