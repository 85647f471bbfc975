/** GET /me/balance - employee. Their own balance, holds and card state. */
import { httpHandler } from '../platform/http';
import { myBalance } from '../services/cards';

export const handler = httpHandler('getBalance', ({ actor, now }) => myBalance(actor, now));
