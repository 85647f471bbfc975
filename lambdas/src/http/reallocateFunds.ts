/** POST /funds/reallocate - verified manager, Idempotency-Key. Even split, remainder cents by id, no fee. */
import { httpHandler } from '../platform/http';
import { reallocate } from '../services/reallocation';

export const handler = httpHandler('reallocateFunds', ({ actor, input, now }) =>
  reallocate(actor, input, now),
);
