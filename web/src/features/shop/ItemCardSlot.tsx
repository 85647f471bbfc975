/**
 * SLOT (virtual card issue): the employee's virtual card beside an opened shop
 * item, so they can pay at the partner with it. Renders nothing until that
 * issue wires its card component in here; the item dialog already leaves room
 * for it (ItemDialog.tsx).
 */
import type { CatalogueItem } from '../../../../shared/src/schemas/catalogue';

export interface ItemCardSlotProps {
  /** The item being looked at (e.g. to compare its price with the card's balance). */
  item: CatalogueItem;
}

export function ItemCardSlot(_props: ItemCardSlotProps) {
  return null;
}
