/** POST /subscription/suspend - verified manager. No charges or funding until resumed; cards keep what they hold. */
import { httpHandler } from '../platform/http';
import { suspendSubscription } from '../services/billing';

export const handler = httpHandler('suspendSubscription', ({ actor, now }) =>
  suspendSubscription(actor, now),
);
