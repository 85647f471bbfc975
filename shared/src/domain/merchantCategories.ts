/**
 * Stripe's merchant category names (`eating_places_restaurants`) in plain
 * words ("Restaurants"), for reasons a person reads: a decline, the answer of
 * "Will this be approved?". A table, not the name with its underscores
 * replaced ("eating places restaurants" reads as nothing), for every category
 * the product names: the learning ones, the kinds of merchant a person can
 * pick, and the everyday ones the sandbox checkout offers. Stripe has some 300
 * more; one of those still reads as words, in sentence case.
 */
const CATEGORY_NAMES: Readonly<Record<string, string>> = {
  // Learning (spendPolicy.LEARNING_CATEGORIES).
  book_stores: 'Bookstores',
  books_periodicals_and_newspapers: 'Books, magazines and newspapers',
  colleges_universities: 'Colleges and universities',
  correspondence_schools: 'Distance-learning schools',
  business_secretarial_schools: 'Business schools',
  vocational_trade_schools: 'Vocational and trade schools',
  digital_goods_media: 'E-books, audiobooks and online media',
  digital_goods_applications: 'Apps and software downloads',
  computer_software_stores: 'Software stores',
  educational_services: 'Courses and training',
  // Not learning, but named: the check's choices and the sandbox checkout's.
  eating_places_restaurants: 'Restaurants',
  fast_food_restaurants: 'Fast food restaurants',
  drinking_places: 'Bars',
  betting_casino_gambling: 'Betting and casinos',
  grocery_stores_supermarkets: 'Grocery stores',
  electronics_stores: 'Electronics stores',
  digital_goods_games: 'Games',
  airlines_air_carriers: 'Airlines',
  hotels_motels_and_resorts: 'Hotels and resorts',
  taxicabs_limousines: 'Taxis and limousines',
  stationery_stores_office_and_school_supply_stores: 'Stationery and school supply stores',
};

/** A merchant category in plain words: "Restaurants" for `eating_places_restaurants`. */
export function merchantCategoryName(category: string): string {
  // Own keys only: a category is what a caller sent, and `constructor` is not a name.
  if (hasCategoryName(category)) return CATEGORY_NAMES[category] as string;
  const words = category.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the table names `category` (not the fallback's words). */
export function hasCategoryName(category: string): boolean {
  return Object.hasOwn(CATEGORY_NAMES, category);
}
