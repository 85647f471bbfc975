/**
 * One result (spec §2 "Item card"): cover, name cut to 35 characters, author
 * to 25, whole stars, review count when there are reviews, category, price
 * ('$' and 2 decimals from the discount price or price, else 'Click for
 * price') and the partners. The whole card opens the item: the name is the
 * button, stretched over the card, so the card is one tab stop.
 */

import { coverDataUrl } from '@shared/domain/cover';
import {
  AUTHOR_MAX_CHARS,
  itemPlatforms,
  NAME_MAX_CHARS,
  priceLabel,
  truncate,
} from '@shared/domain/shopFilter';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { memo } from 'react';
import { PartnerLogo } from './PartnerLogo';
import { Stars } from './Stars';

export const ItemCard = memo(function ItemCard({
  item,
  onOpen,
}: {
  item: CatalogueItem;
  onOpen: (item: CatalogueItem) => void;
}) {
  const name = truncate(item.name, NAME_MAX_CHARS);
  const author = truncate(item.author, AUTHOR_MAX_CHARS);
  const price = priceLabel(item);
  return (
    <article className="shop-card" data-item-id={item.id}>
      <img
        className="shop-card-cover"
        src={coverDataUrl(item)}
        alt=""
        width={200}
        height={300}
        loading="lazy"
        decoding="async"
      />
      <div className="shop-card-body">
        <h3 className="shop-card-name">
          <button
            type="button"
            className="shop-card-open"
            onClick={() => onOpen(item)}
            title={name === item.name ? undefined : item.name}
            aria-haspopup="dialog"
          >
            {name}
          </button>
        </h3>
        <p className="shop-card-author" title={author === item.author ? undefined : item.author}>
          {author}
        </p>
        <p className="shop-card-rating">
          <Stars rating={item.rating} />
          {item.totalReviews > 0 ? (
            <span className="shop-card-reviews">
              {item.totalReviews.toLocaleString('en-US')}
              <span className="shop-visually-hidden"> reviews</span>
            </span>
          ) : null}
        </p>
        <p className="shop-card-category">{item.category}</p>
        <p className={price.startsWith('$') ? 'shop-card-price' : 'shop-card-price shop-card-noprice'}>
          {price}
        </p>
        <ul className="shop-card-partners" aria-label="Sold at">
          {itemPlatforms(item).map(({ platform }) => (
            <li key={platform}>
              <PartnerLogo platform={platform} />
            </li>
          ))}
        </ul>
      </div>
    </article>
  );
});
