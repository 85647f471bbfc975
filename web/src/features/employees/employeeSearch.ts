/** The Employees table's fuzzy search (spec §2), as the original screen configured fuse.js. */
import Fuse from 'fuse.js';
import { type EmployeeRow, fullName } from './employeesStore';

/** Fuse's Bitap matcher works on patterns of up to 32 characters. */
export const SEARCH_MAX_LENGTH = 32;

interface Indexed {
  row: EmployeeRow;
  name: string;
  email: string;
  status: string;
}

/** Fuzzy search over name, email and status: best match first; an empty query lists everyone. */
export function createSearch(rows: readonly EmployeeRow[]): (query: string) => EmployeeRow[] {
  const docs: Indexed[] = rows.map((row) => ({
    row,
    name: fullName(row),
    email: row.email,
    status: row.status,
  }));
  const fuse = new Fuse(docs, {
    keys: ['name', 'email', 'status'],
    threshold: 0.4,
    distance: 100,
    ignoreLocation: false,
  });
  return (query) => {
    const pattern = query.trim().slice(0, SEARCH_MAX_LENGTH);
    if (pattern === '') return [...rows];
    return fuse.search(pattern).map((result) => result.item.row);
  };
}
