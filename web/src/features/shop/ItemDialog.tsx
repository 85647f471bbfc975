/**
 * An opened item (spec §2 "Clicking a card opens a virtual card modal"): its
 * details, the partner links (new tab, no opener, no referrer) and, beside
 * them, the slot for the employee's virtual card (ItemCardSlot) to pay with.
 */
import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { coverDataUrl } from '@shared/domain/cover';
import { formatCents } from '@shared/domain/money';
import {
  effectivePriceCents,
  itemPlatforms,
  mediaFilters,
  platformNames,
  priceLabel,
} from '@shared/domain/shopFilter';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { useSession } from '../../auth/sessionStore';
import { AppModal } from '../../components/AppModal';
import { ItemCardSlot } from './ItemCardSlot';
import { PartnerLogo } from './PartnerLogo';
import { Stars } from './Stars';

function mediaLabel(media: CatalogueItem['media']): string {
  const label = mediaFilters.find((m) => m.value === media)?.label ?? media;
  return label.endsWith('s') ? label.slice(0, -1) : label;
}

export function ItemDialog({
  item,
  onClose,
  fullScreen,
}: {
  item: CatalogueItem | undefined;
  onClose: () => void;
  fullScreen: boolean;
}) {
  // Mantine animates unless told; people who ask for less motion get the dialog at once.
  const reduceMotion = useReducedMotion();
  return (
    <AppModal
      transitionProps={reduceMotion ? { duration: 0 } : undefined}
      opened={item !== undefined}
      onClose={onClose}
      title={item?.name}
      size="xl"
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': 'Close' }}
      classNames={{ title: 'shop-dialog-title' }}
    >
      {item ? <ItemDetails item={item} /> : null}
    </AppModal>
  );
}

function ItemDetails({ item }: { item: CatalogueItem }) {
  const price = effectivePriceCents(item);
  const discounted = item.discountPriceCents !== undefined && item.priceCents !== undefined;
  // Only employees hold a card (spec §6); a manager browses for the team.
  const isEmployee = useSession((s) => s.me?.role) === 'employee';
  return (
    <div className="shop-dialog">
      <img className="shop-dialog-cover" src={coverDataUrl(item)} alt="" width={200} height={300} />
      <Stack gap="sm" className="shop-dialog-main">
        <Text fw={600}>by {item.author}</Text>
        <Group gap="xs">
          <Badge variant="light" color="blue">
            {item.category}
          </Badge>
          <Badge variant="light" color="gray" c="dark">
            {mediaLabel(item.media)}
          </Badge>
          <Text size="sm" c="gray.7">
            {item.year}
          </Text>
        </Group>
        <Text size="sm">Skill: {item.trait}</Text>
        <Group gap="xs" align="center">
          <Stars rating={item.rating} />
          <Text size="sm" c="gray.7">
            {item.totalReviews > 0
              ? `${item.rating.toFixed(1)} from ${item.totalReviews.toLocaleString('en-US')} reviews`
              : 'No reviews yet'}
          </Text>
        </Group>
        <Text size="xl" fw={700}>
          {priceLabel(item)}
          {discounted && price !== undefined ? (
            <Text span size="sm" c="gray.7" fw={400} ml="xs">
              list price <s>{formatCents(item.priceCents as number)}</s>
            </Text>
          ) : null}
        </Text>
        {item.promo ? <Text size="sm">{item.promo}</Text> : null}
        <section aria-labelledby="shop-partners-title">
          <Text component="h3" id="shop-partners-title" fw={700} size="md" mb={6}>
            Buy from a partner
          </Text>
          {isEmployee ? (
            <Text size="sm" c="gray.7" mb="xs">
              Pay with your virtual card at the partner's checkout, then upload the receipt.
            </Text>
          ) : null}
          <Stack gap="xs" align="flex-start">
            {itemPlatforms(item).map(({ platform, url }) => (
              <Button
                key={platform}
                component="a"
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                variant="default"
                leftSection={<PartnerLogo platform={platform} decorative />}
                data-platform={platform}
              >
                Buy at {platformNames[platform]}
                <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
              </Button>
            ))}
          </Stack>
        </section>
      </Stack>
      {/* The employee's virtual card goes here, beside the links (virtual card issue). */}
      <div className="shop-dialog-card-slot" data-slot="virtual-card">
        <ItemCardSlot item={item} />
      </div>
    </div>
  );
}
