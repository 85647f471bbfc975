import { MAX_STARS, starCount } from '@shared/domain/shopFilter';

/** Whole stars out of 5 (floor of the rating, spec §2), said as words to assistive technology. */
export function Stars({ rating }: { rating: number }) {
  const full = starCount(rating);
  return (
    <span className="shop-stars" role="img" aria-label={`${full} out of ${MAX_STARS} stars`}>
      <span aria-hidden="true">
        <span className="shop-stars-full">{'★'.repeat(full)}</span>
        <span className="shop-stars-empty">{'★'.repeat(MAX_STARS - full)}</span>
      </span>
    </span>
  );
}
