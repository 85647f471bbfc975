/**
 * /shop (spec §2 "Shop page", §5 "Shop filtering"), for employees and managers:
 * the filter sidebar (a drawer on phones), the sort bar, '{n} results' and
 * ' for {terms}', the empty state with its suggestions, and the item cards,
 * shown a page at a time so a catalogue of thousands stays quick. Everything
 * the person chose lives in the URL (shared/src/domain/shopFilter.ts), so back,
 * reload and a shared link keep it; the header search writes the same `q`.
 * Opening an item adds `item=` to the URL (back closes it) and records a view.
 */
import {
  Alert,
  Anchor,
  Box,
  Button,
  Drawer,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery, useReducedMotion } from '@mantine/hooks';
import {
  applyShopQuery,
  EMPTY_MESSAGE,
  EMPTY_SUGGESTIONS,
  queryFromParams,
  resultsHeading,
  SEARCH_IDLE_MS,
  type ShopQuery,
  type ShopSort,
  sortOptions,
  writeQueryToParams,
} from '@shared/domain/shopFilter';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { ItemCard } from './ItemCard';
import { ItemDialog } from './ItemDialog';
import { filtersOf, hasFilters, noFilters, ShopFilters, type ShopFilterValues } from './ShopFilters';
import { useCatalogue } from './useCatalogue';
import './shop.css';
import { pageHeadings } from '../../content/pageHeadings';

/** Cards shown at first and added by each 'Show more'. */
export const PAGE_SIZE = 24;
const ITEM_PARAM = 'item';

/** Marks a history entry this page pushed to open an item, so closing can go back instead of pushing. */
interface OpenedHere {
  shopOpenedItem?: boolean;
}

export function ShopPage() {
  useDocumentTitle('Shop');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const catalogue = useCatalogue();
  // Spec §9's mobile breakpoint is xs; the sidebar needs room beside the cards, so tablets get the drawer too.
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const reduceMotion = useReducedMotion();

  const queryKey = writeQueryToParams(queryFromParams(params)).toString();
  const query = useMemo(() => queryFromParams(new URLSearchParams(queryKey)), [queryKey]);
  // Filtering 5,000 items takes a few milliseconds; deferring keeps typing and ticking responsive anyway.
  const deferredQuery = useDeferredValue(query);
  const results = useMemo(
    () => applyShopQuery(catalogue.items, deferredQuery),
    [catalogue.items, deferredQuery],
  );
  const [shown, setShown] = useState(PAGE_SIZE);
  // A new question starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query or the catalogue changes
  useEffect(() => setShown(PAGE_SIZE), [queryKey, catalogue.items]);

  const updateQuery = useCallback(
    (patch: Partial<ShopQuery>) =>
      setParams((prev) => writeQueryToParams({ ...queryFromParams(prev), ...patch }, prev), {
        replace: true,
      }),
    [setParams],
  );
  const applyFilters = useCallback((filters: ShopFilterValues) => updateQuery(filters), [updateQuery]);
  // Everything that narrows the shop: the filters and the search terms (the header's search follows the URL).
  const clearAll = useCallback(() => updateQuery({ ...noFilters, q: '' }), [updateQuery]);

  const byId = useMemo(() => new Map(catalogue.items.map((i) => [i.id, i])), [catalogue.items]);
  const openId = params.get(ITEM_PARAM);
  const openItem = openId ? byId.get(openId) : undefined;

  // Focus goes back to the card that opened the item once the dialog is gone (Escape, Close, or back).
  const opener = useRef<HTMLElement | null>(null);
  const isOpen = openItem !== undefined;
  useEffect(() => {
    if (isOpen || !opener.current) return;
    const card = opener.current;
    opener.current = null;
    const frame = requestAnimationFrame(() => {
      if (card.isConnected && (!document.activeElement || document.activeElement === document.body))
        card.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [isOpen]);

  const openItemDialog = useCallback(
    (item: CatalogueItem) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const next = new URLSearchParams(window.location.search);
      next.set(ITEM_PARAM, item.id);
      navigate({ search: `?${next}` }, { state: { shopOpenedItem: true } satisfies OpenedHere });
      // Analytics must never get in the shopper's way: a failed record is dropped.
      call('recordItemView', { itemId: item.id }).catch(() => undefined);
    },
    [navigate],
  );
  const closeItemDialog = useCallback(() => {
    if ((location.state as OpenedHere | null)?.shopOpenedItem) navigate(-1);
    else
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(ITEM_PARAM);
          return next;
        },
        { replace: true },
      );
  }, [location.state, navigate, setParams]);

  const filters = filtersOf(query);
  const filtered = hasFilters(filters);
  const filterCount =
    filters.categories.length +
    filters.media.length +
    filters.platforms.length +
    (filters.min ? 1 : 0) +
    (filters.max ? 1 : 0);
  const ready = catalogue.status === 'ready';
  const stale = deferredQuery !== query;

  return (
    <Stack gap="md">
      <Title order={1}>{pageHeadings.shop.title}</Title>
      {phone ? <PageSearch terms={query.q} onSearch={(q) => updateQuery({ q })} /> : null}
      <div className={wide ? 'shop-layout shop-layout-wide' : 'shop-layout'}>
        {wide ? (
          <Box component="aside" aria-label="Filters" className="shop-sidebar">
            <Title order={2} size="h4" mb="sm">
              Filters
            </Title>
            <ShopFilters
              applied={filters}
              onApply={applyFilters}
              idPrefix="sidebar"
              searching={query.q !== ''}
              onClear={clearAll}
            />
          </Box>
        ) : null}
        <Stack gap="md" className="shop-results" component="section" aria-labelledby="shop-results-heading">
          <Group justify="space-between" align="flex-end" gap="sm">
            <Text
              id="shop-results-heading"
              className="shop-results-heading"
              component="h2"
              fw={700}
              size="lg"
              aria-live="polite"
              aria-busy={!ready || stale}
              data-testid="shop-results-count"
            >
              {ready ? resultsHeading(results.length, deferredQuery.q) : 'Loading the catalogue…'}
            </Text>
            <Group gap="sm" align="flex-end" wrap="nowrap">
              {wide ? null : (
                <Button
                  variant="default"
                  onClick={() => setDrawerOpen(true)}
                  aria-haspopup="dialog"
                  aria-expanded={drawerOpen}
                >
                  {filterCount > 0 ? `Filters (${filterCount})` : 'Filters'}
                </Button>
              )}
              <NativeSelect
                label="Sort by"
                value={query.sort}
                onChange={(event) => updateQuery({ sort: event.currentTarget.value as ShopSort })}
                data={sortOptions.map((o) => ({ value: o.value, label: o.label }))}
                w={190}
              />
            </Group>
          </Group>

          {catalogue.status === 'error' ? (
            <Alert color="red" title="Could not load the shop">
              <Text size="sm" mb="xs">
                {catalogue.error}
              </Text>
              <Button size="xs" variant="white" color="red" onClick={catalogue.retry}>
                Try again
              </Button>
            </Alert>
          ) : null}
          {catalogue.status === 'loading' ? (
            <Group gap="xs">
              <Loader size="sm" />
              <Text>Loading the catalogue…</Text>
            </Group>
          ) : null}

          {ready && results.length === 0 ? (
            <EmptyState
              onSuggest={(q) => updateQuery({ q })}
              onClear={filtered || query.q !== '' ? clearAll : undefined}
            />
          ) : null}

          {results.length > 0 ? (
            <ul className="shop-grid" aria-label="Results" style={{ opacity: stale ? 0.7 : 1 }}>
              {results.slice(0, shown).map((item) => (
                <li key={item.id}>
                  <ItemCard item={item} onOpen={openItemDialog} />
                </li>
              ))}
            </ul>
          ) : null}
          {results.length > shown ? (
            <Group justify="center">
              <Button variant="default" onClick={() => setShown((n) => n + PAGE_SIZE)}>
                Show more ({(results.length - shown).toLocaleString('en-US')} more)
              </Button>
            </Group>
          ) : null}
        </Stack>
      </div>

      {wide ? null : (
        <Drawer
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title="Filters"
          position="left"
          transitionProps={reduceMotion ? { duration: 0 } : undefined}
          size={phone ? '100%' : 'sm'}
          closeButtonProps={{ 'aria-label': 'Close filters' }}
          classNames={{ title: 'shop-dialog-title' }}
        >
          <ShopFilters
            applied={filters}
            onApply={applyFilters}
            idPrefix="drawer"
            searching={query.q !== ''}
            onClear={clearAll}
          />
          <Button fullWidth mt="lg" onClick={() => setDrawerOpen(false)}>
            {ready ? `Show ${resultsHeading(results.length, '')}` : 'Close'}
          </Button>
        </Drawer>
      )}

      <ItemDialog item={openItem} onClose={closeItemDialog} fullScreen={phone} />
    </Stack>
  );
}

/** Spec §2: 'Sorry No Result Found :(' with Brain, Social and Heart as searches. */
function EmptyState({ onSuggest, onClear }: { onSuggest: (q: string) => void; onClear?: () => void }) {
  return (
    <Stack gap="xs" className="shop-empty" align="flex-start">
      <Text fw={700} size="lg">
        {EMPTY_MESSAGE}
      </Text>
      <Text>
        Try searching for{' '}
        {EMPTY_SUGGESTIONS.map((word, i) => (
          <span key={word}>
            <Anchor component="button" type="button" onClick={() => onSuggest(word)} fw={600}>
              {word}
            </Anchor>
            {i < EMPTY_SUGGESTIONS.length - 2 ? ', ' : i === EMPTY_SUGGESTIONS.length - 2 ? ' or ' : '.'}
          </span>
        ))}
      </Text>
      {onClear ? (
        <Button variant="subtle" px={0} onClick={onClear}>
          Clear filters
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * Phones: the header's search sits in the closed menu, so the page has its own
 * field for the same `q` (500 ms idle, Enter at once).
 */
function PageSearch({ terms, onSearch }: { terms: string; onSearch: (q: string) => void }) {
  const [value, setValue] = useState(terms);
  const shown = useRef(terms);
  useEffect(() => {
    if (terms !== shown.current) {
      shown.current = terms;
      setValue(terms);
    }
  }, [terms]);
  const apply = (q: string) => {
    shown.current = q.trim();
    onSearch(q.trim());
  };
  const applyWhenIdle = useDebouncedCallback(apply, SEARCH_IDLE_MS);
  return (
    <search>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          applyWhenIdle.cancel();
          apply(value);
        }}
      >
        <TextInput
          type="search"
          label="Search the shop"
          placeholder="Search by title, author, or skill"
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            applyWhenIdle(event.currentTarget.value);
          }}
        />
      </form>
    </search>
  );
}
