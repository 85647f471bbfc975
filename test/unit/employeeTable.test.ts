/**
 * The Employees table's search and sort (spec §2): fuzzy search over name,
 * e-mail and status; remaining budget high-first by default; best match first
 * while searching until a column is chosen.
 */
import { describe, expect, it } from 'vitest';
import { createSearch } from '../../web/src/features/employees/employeeSearch';
import type { EmployeeRow } from '../../web/src/features/employees/employeesStore';
import { DEFAULT_SORT, nextSort, pageOf, sortRows } from '../../web/src/features/employees/employeeTable';

function row(i: number, overrides: Partial<EmployeeRow> = {}): EmployeeRow {
  return {
    userId: `u${i}`,
    email: `bench-${String(i).padStart(4, '0')}@bench.test`,
    firstName: 'Dara',
    lastName: `Haddad-${i}`,
    status: 'active',
    cardStatus: 'active',
    budgetCents: 2500,
    nextBudgetCents: 2500,
    remainingBudgetCents: (i % 7) * 100,
    onHoldCents: 0,
    ...overrides,
  } as EmployeeRow;
}

const team = Array.from({ length: 1000 }, (_, i) => row(i));

describe('employee search', () => {
  it('puts the exact e-mail first among a thousand similar ones', () => {
    const found = createSearch(team)('bench-0777@bench.test');
    expect(found[0]?.email).toBe('bench-0777@bench.test');
    expect(found.length).toBeGreaterThan(1); // fuzzy: near misses follow
  });

  it('finds by status and by name, and an empty query lists everyone', () => {
    const rows = [
      row(1),
      row(2, { status: 'paused' }),
      row(3, { firstName: 'Zephyrine', lastName: 'Quist' }),
    ];
    const search = createSearch(rows);
    expect(search('paused')[0]?.userId).toBe('u2');
    expect(search('zephyrine')[0]?.userId).toBe('u3');
    expect(search('   ')).toHaveLength(3);
  });

  it('matches nothing far from every field', () => {
    expect(createSearch([row(1)])('qqqqqqqq')).toEqual([]);
  });
});

describe('employee sort', () => {
  it('defaults to remaining budget, highest first, ties by name', () => {
    const sorted = sortRows([row(1), row(6), row(13), row(3)], DEFAULT_SORT);
    expect(sorted.map((r) => r.remainingBudgetCents)).toEqual([600, 600, 300, 100]);
    expect(sorted.slice(0, 2).map((r) => r.userId)).toEqual(['u13', 'u6']);
  });

  it('flips the same column; a new column (or the first after relevance order) starts naturally', () => {
    expect(nextSort(DEFAULT_SORT, 'remaining')).toEqual({ key: 'remaining', direction: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'email')).toEqual({ key: 'email', direction: 'asc' });
    expect(nextSort(null, 'remaining')).toEqual({ key: 'remaining', direction: 'desc' });
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'asc' });
  });

  it('pages 25 at a time and keeps the page in range', () => {
    expect(pageOf(team, 1).rows).toHaveLength(25);
    expect(pageOf(team, 1).pages).toBe(40);
    expect(pageOf(team, 99).page).toBe(40);
  });
});
