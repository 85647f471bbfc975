/**
 * The signed-in employee's card: balance, holds, card state and the last
 * decline (GET /me/balance), shared by the header's card button and the card
 * dialog.
 *
 * Declines at once (decisions.md): while the tab is visible the balance is
 * polled every POLL_MS, and once more the moment the tab becomes visible
 * again, so a purchase declined at a till shows here within seconds with its
 * reason. Polling, not a socket: one small read every few seconds per open tab
 * costs far less than a WebSocket API and its connection table, and a hidden
 * tab costs nothing. A decline is announced once: the one already there when
 * the page loaded is shown on the card, not announced again.
 */

import type { RouteOutput } from '@shared/api/routes';
import { formatCents } from '@shared/domain/money';
import { declineWithNextStep } from '@shared/domain/spendPolicy';
import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import { call, errorMessage } from '../api/client';
import { declineMessages } from '../content/consoleMessages';
import { notify } from './notifications';

export type Balance = RouteOutput<'getBalance'>;

/** How often the balance is read while the tab is visible: a decline shows within 10 s. */
export const POLL_MS = 4000;
/** After a failed read, wait longer (doubling up to this) so an outage is not hammered. */
const MAX_BACKOFF_MS = 60_000;

interface CardState {
  balance: Balance | null;
  /** Why the last read failed, while no later read succeeded. */
  error: string | null;
  /** Re-reads at once (after a purchase check, on opening the dialog). */
  refresh: () => Promise<void>;
  /** The card dialog (spec §3 "vCardModal"): opened from the header, later from a shop item. */
  dialogOpen: boolean;
  openDialog: () => void;
  closeDialog: () => void;
}

/** The `at` of the newest decline already shown or announced; undefined until the first read. */
let seenDeclineAt: string | null | undefined;
let inFlight: Promise<void> | undefined;

async function read(): Promise<void> {
  inFlight ??= (async () => {
    try {
      const balance = await call('getBalance', {});
      const decline = balance.lastDecline;
      if (seenDeclineAt !== undefined && decline && decline.at !== seenDeclineAt) {
        notify({
          kind: 'error',
          title: declineMessages.title(formatCents(decline.amountCents), decline.merchant),
          message: declineWithNextStep(decline.reason),
        });
      }
      seenDeclineAt = decline?.at ?? null;
      useCard.setState({ balance, error: null });
    } catch (error) {
      useCard.setState({ error: errorMessage(error) });
      throw error;
    } finally {
      inFlight = undefined;
    }
  })();
  return inFlight;
}

export const useCard = create<CardState>()((set) => ({
  balance: null,
  error: null,
  refresh: () => read().catch(() => undefined),
  dialogOpen: false,
  openDialog: () => set({ dialogOpen: true }),
  closeDialog: () => set({ dialogOpen: false }),
}));

/**
 * Starts polling; returns the function that stops it. Call once for a signed-in
 * employee (SignedInLayout); nothing polls for managers.
 */
export function startCardPolling(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = POLL_MS;
  let stopped = false;

  const visible = () => document.visibilityState === 'visible';
  const schedule = (ms: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = stopped || !visible() ? undefined : setTimeout(tick, ms);
  };
  async function tick() {
    timer = undefined;
    try {
      await read();
      delay = POLL_MS;
    } catch {
      delay = Math.min(delay * 2, MAX_BACKOFF_MS);
    }
    schedule(delay);
  }
  const onVisibility = () => {
    // Back in view: read now (a decline may have happened meanwhile), then every POLL_MS.
    if (visible()) void tick();
    else schedule(0);
  };

  document.addEventListener('visibilitychange', onVisibility);
  void tick();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    // The next person signed in on this tab starts from their own card.
    seenDeclineAt = undefined;
    useCard.setState({ balance: null, error: null, dialogOpen: false });
  };
}

/** What the card holds and owes: it changes whenever money on the card moves. */
const moneyKey = (s: CardState) =>
  s.balance ? `${s.balance.availableCents}:${s.balance.onHoldCents}:${s.balance.owedCents}` : null;

/**
 * A number that goes up each time the polled balance shows the card's money
 * moved (an approval, a capture, a refund, a funding); 0 until then, and for
 * managers, who are not polled. Screens that list the card's activity re-read
 * when it changes, so a purchase made at a till appears there as soon as the
 * header's balance changes, without a reload.
 */
export function useCardMoneyMoves(): number {
  const key = useCard(moneyKey);
  const [moves, setMoves] = useState(0);
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    if (last.current !== null && last.current !== key) setMoves((n) => n + 1);
    last.current = key;
  }, [key]);
  return moves;
}
