/** POST /funds/deposit/preview - verified manager. What a deposit would charge in total; charges nothing. */
import { httpHandler } from '../platform/http';
import { previewDeposit } from '../services/money';

export const handler = httpHandler('previewDeposit', ({ actor, input, now }) =>
  previewDeposit(actor, input, now),
);
