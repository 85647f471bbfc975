/**
 * The Employees table's sort and paging, apart from React so a 1,000-person
 * team costs a sort per change and only a page of rows is ever rendered. The
 * search is in employeeSearch.ts, so the dashboard's preview (which sorts but
 * never searches) does not download fuse.js.
 */
import { type EmployeeRow, fullName } from './employeesStore';

export const PAGE_SIZE = 25;

export type SortKey = 'name' | 'email' | 'status' | 'cardStatus' | 'budget' | 'remaining';
export interface Sort {
  key: SortKey;
  direction: 'asc' | 'desc';
}
/** Spec §2: remaining budget, highest first. */
export const DEFAULT_SORT: Sort = { key: 'remaining', direction: 'desc' };

const text = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

const compare: Record<SortKey, (a: EmployeeRow, b: EmployeeRow) => number> = {
  name: (a, b) => text(fullName(a), fullName(b)),
  email: (a, b) => text(a.email, b.email),
  status: (a, b) => text(a.status, b.status),
  cardStatus: (a, b) => text(a.cardStatus, b.cardStatus),
  budget: (a, b) => a.budgetCents - b.budgetCents,
  remaining: (a, b) => a.remainingBudgetCents - b.remainingBudgetCents,
};

/** Sorted by the column, ties by name then e-mail, so the order never jumps between renders. */
export function sortRows(rows: readonly EmployeeRow[], sort: Sort): EmployeeRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort(
    (a, b) => sign * compare[sort.key](a, b) || compare.name(a, b) || compare.email(a, b),
  );
}

/**
 * A click on a column: the same column flips; another (or the first click
 * after relevance order) starts high-first for money, A-Z for words.
 */
export function nextSort(current: Sort | null, key: SortKey): Sort {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'budget' || key === 'remaining' ? 'desc' : 'asc' };
}

export function pageOf<T>(rows: readonly T[], page: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE), page: current, pages };
}
