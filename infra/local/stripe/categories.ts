/**
 * Merchant categories offered by the checkout page: Stripe's own category
 * names (the `spending_controls` vocabulary) with their ISO 18245 MCCs. The
 * first group is what a learning budget is meant for, the second is not, so
 * both kinds of purchase can be tried.
 */

export interface MerchantCategory {
  name: string;
  code: string;
  label: string;
  learning: boolean;
}

export const merchantCategories: readonly MerchantCategory[] = [
  { name: 'book_stores', code: '5942', label: 'Book stores', learning: true },
  {
    name: 'books_periodicals_and_newspapers',
    code: '5192',
    label: 'Books, periodicals, newspapers',
    learning: true,
  },
  { name: 'educational_services', code: '8299', label: 'Educational services', learning: true },
  { name: 'colleges_universities', code: '8220', label: 'Colleges and universities', learning: true },
  { name: 'correspondence_schools', code: '8241', label: 'Correspondence schools', learning: true },
  {
    name: 'business_secretarial_schools',
    code: '8244',
    label: 'Business and secretarial schools',
    learning: true,
  },
  { name: 'vocational_trade_schools', code: '8249', label: 'Vocational and trade schools', learning: true },
  {
    name: 'digital_goods_media',
    code: '5815',
    label: 'Digital goods: media (e-books, courses)',
    learning: true,
  },
  { name: 'digital_goods_applications', code: '5817', label: 'Digital goods: applications', learning: true },
  { name: 'computer_software_stores', code: '5734', label: 'Computer software stores', learning: true },
  {
    name: 'stationery_stores_office_and_school_supply_stores',
    code: '5943',
    label: 'Stationery and school supplies',
    learning: true,
  },
  { name: 'fast_food_restaurants', code: '5814', label: 'Fast food restaurants', learning: false },
  { name: 'eating_places_restaurants', code: '5812', label: 'Restaurants', learning: false },
  { name: 'drinking_places', code: '5813', label: 'Bars and drinking places', learning: false },
  { name: 'betting_casino_gambling', code: '7995', label: 'Betting and casinos', learning: false },
  { name: 'grocery_stores_supermarkets', code: '5411', label: 'Grocery stores', learning: false },
  { name: 'digital_goods_games', code: '5816', label: 'Digital goods: games', learning: false },
  { name: 'electronics_stores', code: '5732', label: 'Electronics stores', learning: false },
  { name: 'airlines_air_carriers', code: '4511', label: 'Airlines', learning: false },
  { name: 'hotels_motels_and_resorts', code: '7011', label: 'Hotels and resorts', learning: false },
  { name: 'taxicabs_limousines', code: '4121', label: 'Taxis and limousines', learning: false },
];

export function findCategory(name: string): MerchantCategory | undefined {
  return merchantCategories.find((c) => c.name === name);
}
