/** The words of fund requests (issue 27), in one place. */
import { formatCents } from '@shared/domain/money';
import type { RequestView } from '@shared/schemas/requests';

export const requestText = {
  askButton: 'Request funds for this',
  newRequest: 'Request funds',
  dialogTitle: 'Request funds from your manager',
  dialogIntro:
    'Your manager gets an e-mail and decides. If they approve, the money is added to your card as an extra deposit.',
  sent: 'Request sent to your manager.',
  autoApproved: (cents: number) => `Approved automatically: ${formatCents(cents)} was added to your card.`,
  cancelled: 'Request cancelled.',
  noneEmployee:
    'No requests yet. When something costs more than your balance, ask your manager for the funds here or from the shop.',
  noneManager: 'No requests here.',
  approved: (n: number) => (n === 1 ? 'Request approved.' : `${n} requests approved.`),
  declined: 'Request declined. They have been told why.',
};

/** A request's state as its row says it. */
export function stateLine(r: RequestView, role: 'employee' | 'manager'): string {
  switch (r.state) {
    case 'pending':
      return role === 'employee' ? 'Waiting for your manager' : 'Waiting for you';
    case 'approving':
      return 'Being approved';
    case 'approved': {
      const cents = r.approvedCents ?? r.amountCents;
      const part = cents < r.amountCents ? ` of ${formatCents(r.amountCents)}` : '';
      return `Approved${r.automatic ? ' automatically' : ''}: ${formatCents(cents)}${part}`;
    }
    case 'declined':
      return 'Declined';
    case 'cancelled':
      return 'Cancelled';
    case 'expired':
      return 'Expired: not answered within 14 days';
  }
}

export const STATE_COLORS: Record<RequestView['state'], string> = {
  pending: 'yellow',
  approving: 'blue',
  approved: 'green',
  declined: 'red',
  cancelled: 'gray',
  expired: 'gray',
};
