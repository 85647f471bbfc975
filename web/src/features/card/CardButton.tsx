/**
 * The header's virtual-card button for employees (spec §2 "Header and
 * menus"): the remaining budget as dollars with 2 decimals; opens the card
 * dialog. Mounting it starts the balance polling that brings declines to the
 * screen at once (stores/card.ts).
 */
import { Button } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { lazy, Suspense, useEffect, useState } from 'react';
import { startCardPolling, useCard } from '../../stores/card';

// The dialog (Mantine's Modal, the issuer frame, the purchase check) loads once it is
// first opened, not with every signed-in page.
const CardDialog = lazy(() => import('./CardDialog').then((m) => ({ default: m.CardDialog })));

function CardIcon({ frozen }: { frozen: boolean }) {
  const color = frozen ? 'var(--mantine-color-red-9)' : 'currentColor';
  return (
    <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <rect x="1.5" y="4" width="17" height="12" rx="2" fill="none" stroke={color} strokeWidth="1.6" />
      <path d="M1.5 8h17" stroke={color} strokeWidth="2" />
      {frozen ? <path d="M2 18L18 2" stroke={color} strokeWidth="1.8" strokeLinecap="round" /> : null}
    </svg>
  );
}

export function CardButton() {
  const balance = useCard((s) => s.balance);
  const open = useCard((s) => s.openDialog);
  const dialogOpened = useCard((s) => s.dialogOpen);
  // Mounted from the first opening on; AppModal gives focus back to this button on every closing, the first too.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  useEffect(() => {
    if (dialogOpened) setDialogLoaded(true);
  }, [dialogOpened]);
  useEffect(() => startCardPolling(), []);

  const amount = balance ? formatCents(balance.availableCents) : '…';
  const frozen = balance?.cardStatus === 'inactive';
  return (
    <>
      <Button
        // Frozen: a plain button with the icon in red; Mantine's light orange would not read at AA.
        variant={frozen ? 'default' : 'light'}
        color="blue"
        leftSection={<CardIcon frozen={frozen} />}
        onClick={open}
        aria-haspopup="dialog"
        // The visible amount is part of the name (WCAG 2.5.3), with what it is.
        aria-label={`Virtual card: ${amount} remaining${frozen ? ', frozen' : ''}`}
        data-tour="header-card"
        data-testid="card-button"
        px="sm"
      >
        {amount}
      </Button>
      {dialogLoaded ? (
        <Suspense fallback={null}>
          <CardDialog />
        </Suspense>
      ) : null}
    </>
  );
}
