/**
 * Shop: the catalogue (and its import) and the item views that rate-limit and
 * record what an employee opened.
 */
export { getCatalogue, importCatalogue, importCatalogueText } from './catalogue';
export { recordItemView } from './itemViews';
