/**
 * Freezes or activates cards and says how it went, in the spec's words, the
 * same for every place that does it (the row's dialog, bulk Activate, the bulk
 * button, the freeze page). True when the server took the change.
 */
import { call, errorMessage } from '../../api/client';
import { employeeMessages } from '../../content/consoleMessages';
import { notify } from '../../stores/notifications';

export async function setCardsStatus(userIds: string[], status: 'active' | 'inactive'): Promise<boolean> {
  try {
    await call('setCardStatus', { userIds, status });
    notify({ kind: 'success', message: employeeMessages.cardStatusChanged });
    return true;
  } catch (error) {
    notify({ kind: 'error', message: employeeMessages.cardStatusFailed(errorMessage(error)) });
    return false;
  }
}
