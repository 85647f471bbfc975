/** GET /me/statement - employee. Their own ledger lines with running balances. */
import { httpHandler } from '../platform/http';
import { myStatement } from '../services/cards';

export const handler = httpHandler('getStatement', ({ actor }) => myStatement(actor));
