/**
 * The team's employees as the Employees screen and the dashboard preview show
 * them: loaded once, reloaded after every action so the table shows the new
 * state without a page reload.
 */

import type { RouteOutput } from '@shared/api/routes';
import { create } from 'zustand';
import { call } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { employeeMessages } from '../../content/consoleMessages';
import { notify } from '../../stores/notifications';

export type EmployeeRow = RouteOutput<'listEmployees'>['employees'][number];
/** A roster row waiting for its start day (issue 28). */
export type ScheduledStart = NonNullable<RouteOutput<'listEmployees'>['scheduled']>[number];

interface EmployeesState {
  rows: EmployeeRow[];
  scheduled: ScheduledStart[];
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** Loads (or reloads) the list; a failure shows spec §8's 'Error loading employes'. */
  load: () => Promise<void>;
}

let inFlight: Promise<void> | undefined;

export const useEmployees = create<EmployeesState>()((set, get) => ({
  rows: [],
  scheduled: [],
  status: 'idle',
  load: () => {
    // Two screens asking at once share one request.
    if (inFlight) return inFlight;
    if (get().status !== 'ready') set({ status: 'loading' });
    inFlight = call('listEmployees', {})
      .then(
        ({ employees, scheduled }) => set({ rows: employees, scheduled: scheduled ?? [], status: 'ready' }),
        () => {
          set({ status: 'failed' });
          notify({ kind: 'error', message: employeeMessages.loadFailed });
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  },
}));

// Another person signing in on this tab never sees the previous manager's people, even for a moment.
let owner = useSession.getState().me?.userId;
useSession.subscribe((session) => {
  const next = session.me?.userId;
  if (next === owner) return;
  owner = next;
  useEmployees.setState({ rows: [], scheduled: [], status: 'idle' });
});

export function fullName(row: Pick<EmployeeRow, 'firstName' | 'lastName'>): string {
  return `${row.firstName} ${row.lastName}`.trim();
}
