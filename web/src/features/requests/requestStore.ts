/**
 * Fund requests in the web app (issue 27): which "Request funds" form is open
 * (and what it starts with), and how many of the team's requests wait for the
 * manager (the side menu's badge, the dashboard). `changed` counts the
 * requests made or decided here, so lists read again.
 */
import { create } from 'zustand';
import { call } from '../../api/client';

/** What the form starts with: a shop item, a declined purchase, or nothing (free-form). */
export interface RequestPrefill {
  itemId?: string;
  title?: string;
  merchant?: string;
  link?: string;
  skillArea?: string;
  amountCents?: number;
}

interface RequestState {
  prefill: RequestPrefill | undefined;
  changed: number;
  pendingCount: number | undefined;
  open: (prefill: RequestPrefill) => void;
  close: () => void;
  markChanged: () => void;
  /** The manager's pending count, read again. */
  loadPendingCount: () => Promise<void>;
}

export const useRequests = create<RequestState>()((set, get) => ({
  prefill: undefined,
  changed: 0,
  pendingCount: undefined,
  open: (prefill) => set({ prefill }),
  close: () => set({ prefill: undefined }),
  markChanged: () => {
    set((s) => ({ changed: s.changed + 1 }));
    if (get().pendingCount !== undefined) void get().loadPendingCount();
  },
  loadPendingCount: async () => {
    try {
      const { requests } = await call('listRequests', { state: 'pending' });
      set({ pendingCount: requests.length });
    } catch {
      // The badge is a convenience: the Requests page says what went wrong.
    }
  },
}));

/** Dollars and cents as the amount field shows them: 29.99, 30. */
export function dollarsText(cents: number | undefined): string {
  if (cents === undefined) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}
