/**
 * The filter sidebar (spec §2): price min and max, Categories, Media Type and
 * Platform checkboxes. Changes are kept here and applied 500 ms after the last
 * one (spec §9), so ticking three boxes filters once; the URL then holds them.
 * When the URL changes from elsewhere (back, a shared link, Clear), the fields
 * follow it.
 */
import { Button, Checkbox, Fieldset, Group, Stack, TextInput } from '@mantine/core';
import {
  categoryFilters,
  emptyQuery,
  FILTER_DELAY_MS,
  mediaFilters,
  platformFilters,
  priceRange,
  type ShopQuery,
  writeQueryToParams,
} from '@shared/domain/shopFilter';
import { useEffect, useRef, useState } from 'react';

export type ShopFilterValues = Pick<ShopQuery, 'min' | 'max' | 'categories' | 'media' | 'platforms'>;

export const noFilters: ShopFilterValues = {
  min: '',
  max: '',
  categories: [],
  media: [],
  platforms: [],
};

export function filtersOf(query: ShopQuery): ShopFilterValues {
  const { min, max, categories, media, platforms } = query;
  return { min, max, categories, media, platforms };
}

/** A stable text of the filters, to compare drafts with what the URL holds. */
function keyOf(filters: ShopFilterValues): string {
  return writeQueryToParams({ ...emptyQuery, ...filters }).toString();
}

export function hasFilters(filters: ShopFilterValues): boolean {
  return keyOf(filters) !== '';
}

function toggle(list: string[], value: string, on: boolean, order: readonly string[]): string[] {
  const set = new Set(list);
  if (on) set.add(value);
  else set.delete(value);
  return order.filter((v) => set.has(v));
}

interface Props {
  /** What the URL holds now. */
  applied: ShopFilterValues;
  onApply: (filters: ShopFilterValues) => void;
  /** Prefix for field ids, so the sidebar and the phone drawer never share one. */
  idPrefix: string;
  /** Search terms narrow the shop too: Clear filters is offered for them and takes them away. */
  searching: boolean;
  /** Clears the applied filters and the search at once (the URL's `q` and the filters). */
  onClear: () => void;
}

export function ShopFilters({ applied, onApply, idPrefix, searching, onClear }: Props) {
  const [draft, setDraft] = useState(applied);
  const appliedKey = keyOf(applied);
  const lastApplied = useRef(appliedKey);
  const apply = useRef(onApply);
  apply.current = onApply;

  // The URL changed under us (back, reload, Clear, a shared link): show what it holds.
  useEffect(() => {
    if (appliedKey !== lastApplied.current) {
      lastApplied.current = appliedKey;
      setDraft(applied);
    }
  }, [appliedKey, applied]);

  // Spec §9: filters apply 500 ms after the last change.
  const draftKey = keyOf(draft);
  useEffect(() => {
    if (draftKey === lastApplied.current) return;
    const timer = setTimeout(() => {
      lastApplied.current = draftKey;
      apply.current(draft);
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draftKey, draft]);

  const range = priceRange(draft.min, draft.max);
  const set = (patch: Partial<ShopFilterValues>) => setDraft((d) => ({ ...d, ...patch }));

  const group = (
    legend: string,
    field: 'categories' | 'media' | 'platforms',
    options: readonly { value: string; label: string }[],
  ) => (
    <Fieldset legend={legend} variant="unstyled" classNames={{ legend: 'shop-filter-legend' }}>
      <Stack gap={8}>
        {options.map((option) => (
          <Checkbox
            key={option.value}
            id={`${idPrefix}-${field}-${option.value.replace(/\W+/g, '-')}`}
            label={option.label}
            checked={draft[field].includes(option.value)}
            onChange={(event) =>
              set({
                [field]: toggle(
                  draft[field],
                  option.value,
                  event.currentTarget.checked,
                  options.map((o) => o.value),
                ),
              })
            }
          />
        ))}
      </Stack>
    </Fieldset>
  );

  return (
    <Stack gap="lg" className="shop-filters">
      <Fieldset legend="Price" variant="unstyled" classNames={{ legend: 'shop-filter-legend' }}>
        <Group gap="xs" grow align="flex-start" wrap="nowrap">
          <TextInput
            id={`${idPrefix}-min`}
            label="Min price"
            inputMode="decimal"
            autoComplete="off"
            leftSection="$"
            value={draft.min}
            error={range.errors.min}
            onChange={(event) => set({ min: event.currentTarget.value })}
          />
          <TextInput
            id={`${idPrefix}-max`}
            label="Max price"
            inputMode="decimal"
            autoComplete="off"
            leftSection="$"
            value={draft.max}
            error={range.errors.max}
            onChange={(event) => set({ max: event.currentTarget.value })}
          />
        </Group>
      </Fieldset>
      {group(
        'Categories',
        'categories',
        categoryFilters.map((c) => ({ value: c, label: c })),
      )}
      {group('Media Type', 'media', mediaFilters)}
      {group('Platform', 'platforms', platformFilters)}
      <Button
        variant="subtle"
        onClick={() => {
          setDraft(noFilters);
          onClear();
        }}
        disabled={!hasFilters(draft) && !searching}
      >
        Clear filters
      </Button>
    </Stack>
  );
}
