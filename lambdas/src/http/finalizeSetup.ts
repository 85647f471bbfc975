/** POST /billing/setup - verified manager, Idempotency-Key. Customer + first card + address + cycle; invitations. */
import { httpHandler } from '../platform/http';
import { finalizeSetup } from '../services/setup';

export const handler = httpHandler('finalizeSetup', ({ actor, input, now, log, steps }) =>
  finalizeSetup(actor, input, now, log, steps),
);
