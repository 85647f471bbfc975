/**
 * The employee's virtual card beside an opened shop item (spec §2 "Clicking a
 * card opens a virtual card modal"): what is left to spend, the card's details
 * in the issuer's frame (or the frozen notice), and "Will this be approved?"
 * filled in with the item's price and the kind of merchant that sells it.
 * When the card would decline the item (over the balance, frozen) it says so
 * at once, with the card's own reason (itemDecline.ts).
 * Managers have no card: nothing is shown to them.
 */
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { effectivePriceCents, itemPlatforms, platformNames } from '@shared/domain/shopFilter';
import type { CatalogueItem, Media } from '@shared/schemas/catalogue';
import { useEffect } from 'react';
import { useSession } from '../../auth/sessionStore';
import { cardDialogMessages, purchaseCheckMessages } from '../../content/consoleMessages';
import { useCard } from '../../stores/card';
import { CardFrame } from '../card/CardFrame';
import { PurchaseCheck } from '../card/PurchaseCheck';
import { useRequests } from '../requests/requestStore';
import { requestText } from '../requests/requestText';
import { itemDeclineReason } from './itemDecline';

export interface ItemCardSlotProps {
  /** The item being looked at: its price and media prefill the purchase check. */
  item: CatalogueItem;
}

/** The merchant category a partner selling this media is expected to use (the check's default). */
const merchantKindOf: Record<Media, string> = {
  book: 'book_stores',
  audiobook: 'digital_goods_media',
  course: 'educational_services',
  assessment: 'educational_services',
};

export function ItemCardSlot({ item }: ItemCardSlotProps) {
  const role = useSession((s) => s.me?.role);
  const balance = useCard((s) => s.balance);
  const refresh = useCard((s) => s.refresh);
  const openDialog = useCard((s) => s.openDialog);
  const openRequest = useRequests((s) => s.open);
  useEffect(() => {
    if (role === 'employee') void refresh();
  }, [role, refresh]);
  if (role !== 'employee') return null;

  const price = effectivePriceCents(item);
  const active = balance?.cardStatus === 'active';
  const declineReason = balance ? itemDeclineReason(balance, price, merchantKindOf[item.media]) : null;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Pay with your virtual card
        </Title>
        <Text>{balance ? `${formatCents(balance.availableCents)} left to spend` : 'Loading your card…'}</Text>
        {declineReason ? (
          <Alert
            color="red"
            variant="light"
            title={purchaseCheckMessages.itemDeclined}
            data-testid="item-decline"
          >
            <Text size="sm" c="dark">
              {declineReason}
            </Text>
          </Alert>
        ) : null}
        {/* Issue 27: ask the manager for this item's price (above the balance, or any time). */}
        <Button
          variant={declineReason ? 'filled' : 'light'}
          onClick={() => {
            const platform = itemPlatforms(item)[0];
            openRequest({
              itemId: item.id,
              title: item.name,
              merchant: platform ? platformNames[platform.platform] : undefined,
              skillArea: item.category,
              amountCents: price,
            });
          }}
        >
          {requestText.askButton}
        </Button>
        {balance && !active ? (
          <Text role="status">
            {balance.cardStatus === 'inactive' ? cardDialogMessages.frozenTitle : cardDialogMessages.pending}{' '}
            <Button variant="subtle" size="compact-sm" onClick={openDialog}>
              Open your card
            </Button>
          </Text>
        ) : null}
        {active ? <CardFrame /> : null}
        {balance?.card ? (
          <PurchaseCheck
            headingOrder={4}
            defaultAmountCents={price ?? undefined}
            defaultCategory={merchantKindOf[item.media]}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
