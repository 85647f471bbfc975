/**
 * POST /requests - signed in, verified, Idempotency-Key. One action on fund
 * requests, by role: an employee asks or cancels their own; a manager
 * approves (each an extra deposit: more than the step-up threshold moved or
 * committed today, these included, needs a fresh factor, as for deposits),
 * declines, or sets the team's rules (always a fresh factor: they move money
 * without a click). The other role's actions are refused (403).
 */
import { AppError } from '@shared/errors';
import { requireFreshFactor, requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { movedOrCommittedToday } from '../services/money';
import {
  approvalTotal,
  approveRequests,
  cancelRequest,
  createRequest,
  declineRequest,
  setRequestRules,
} from '../services/requests';

const EMPLOYEE_ACTIONS = new Set(['ask', 'cancel']);

export const handler = httpHandler(
  'actOnRequest',
  async ({ actor, input, now, idempotencyKey, log, steps }) => {
    const forEmployees = EMPLOYEE_ACTIONS.has(input.action);
    if (forEmployees !== (actor.role === 'employee'))
      throw new AppError(
        'FORBIDDEN',
        forEmployees ? 'Only employees ask for funds.' : 'Only the team’s manager decides on requests.',
      );
    switch (input.action) {
      case 'ask':
        return createRequest(actor, input, now, log);
      case 'cancel':
        return cancelRequest(actor, input.requestId, now);
      case 'decline':
        return declineRequest(actor, input.requestId, input.reason, now);
      case 'setRules':
        await requireFreshFactor(actor, now);
        return setRequestRules(actor, input, now);
      case 'approve':
        // Asked once per request: a retry finishing it would count its own deposits as moved today.
        await steps.once('freshFactor', async () => {
          const requested = await approvalTotal(actor, input);
          await requireFreshFactorAbove(
            actor,
            (await movedOrCommittedToday(actor.teamId, now)) + requested,
            now,
          );
          return true;
        });
        return approveRequests(actor, input, idempotencyKey, now, log, steps);
    }
  },
);
