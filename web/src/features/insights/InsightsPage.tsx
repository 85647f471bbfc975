/**
 * /dashboard/insights (manager, issue 26): what the team's learning budget
 * did over a period of the team's calendar months (GET /insights and GET
 * /insights/people): the totals, where the money went (skill area, media
 * type, merchant, person, month), who has not used theirs and who is heading
 * for dormancy, receipts outstanding and the next monthly charge. Each chart
 * has a table beside it with the same numbers, a link from each row (and
 * bar) to the matching purchases, and a CSV download. The people lists show
 * the first few the server answers (counts for the rest); their CSVs fetch
 * the whole list (GET /insights/people/all). Lazily loaded, so the chart code
 * stays out of every other screen.
 */
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { spreadsheetSafe, toCsv } from '@shared/domain/csv';
import { formatCents } from '@shared/domain/money';
import {
  type InsightSlice,
  type InsightSpender,
  type InsightsAnswer,
  type InsightsPeopleAnswer,
  type InsightsPeopleListAnswer,
  type InsightsPeopleListQuery,
  PEOPLE_LISTED,
  TOP_SPENDERS,
} from '@shared/schemas/insights';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { pageHeadings } from '../../content/pageHeadings';
import { notify } from '../../stores/notifications';
import { formatDate, teamMonth } from '../../stores/teamCalendar';
import { type PurchaseFilter, purchasesLink } from '../purchases/purchaseFilter';
import { MEDIA_LABELS } from '../purchases/skillText';
import { Breakdown } from './Breakdown';
import { breakdownCsv, decimalAmount, saveCsv } from './breakdownCsv';
import { CAPTION, HorizontalBars, MonthBars } from './charts';
import { readInsights, readInsightsPeople, readInsightsPeopleList } from './insightsApi';
import {
  monthLabel,
  PERIOD_KINDS,
  PERIOD_LABELS,
  type Period,
  type PeriodKind,
  periodFrom,
  periodLabel,
  rangeProblem,
} from './period';

/** Merchants beyond this many are in the table and its CSV, not in the chart. */
const TOP = 10;

function count(n: number, one: string, many: string) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A spender as the chart, the table and the CSV name them: a removed person says so. */
function spenderLabel(person: InsightSpender): string {
  const name = person.name || person.email || 'Someone';
  return person.status === 'deleted' ? `${name} (removed)` : name;
}

type PeopleList = InsightsPeopleListQuery['list'];

/**
 * A people list's CSV: the whole list is fetched for the period, then saved.
 * `fetching` names the list on its way (its button shows it); a failure is an
 * error notification, and the page stays as it was.
 */
function useListDownload(from: string, to: string) {
  const [fetching, setFetching] = useState<PeopleList>();
  async function download<List extends PeopleList>(
    list: List,
    save: (answer: Extract<InsightsPeopleListAnswer, { list: List }>) => void,
  ) {
    setFetching(list);
    try {
      save(await readInsightsPeopleList({ from, to, list }));
    } catch (e) {
      notify({ kind: 'error', title: 'Could not download the CSV', message: errorMessage(e) });
    } finally {
      setFetching(undefined);
    }
  }
  return { fetching, download };
}

function PeriodPicker({ period, phone }: { period: Period; phone: boolean }) {
  const [, setParams] = useSearchParams();
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    setFrom(period.from);
    setTo(period.to);
  }, [period.from, period.to]);

  function choose(kind: PeriodKind) {
    setProblem(undefined);
    setParams(kind === 'custom' ? { period: kind, from: period.from, to: period.to } : { period: kind }, {
      replace: true,
    });
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const wrong = rangeProblem(from, to);
    setProblem(wrong);
    if (!wrong) setParams({ period: 'custom', from, to }, { replace: true });
  }

  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Period"
        value={period.kind}
        onChange={(value) => choose(value as PeriodKind)}
        data={PERIOD_KINDS.map((kind) => ({
          value: kind,
          label: PERIOD_LABELS[kind],
        }))}
        orientation={phone ? 'vertical' : 'horizontal'}
        fullWidth={phone}
        style={{ alignSelf: phone ? 'stretch' : 'flex-start' }}
      />
      {period.kind === 'custom' ? (
        <form onSubmit={apply} noValidate>
          <Group gap="sm" align="flex-end">
            <TextInput
              type="month"
              label="First month"
              value={from}
              onChange={(event) => setFrom(event.currentTarget.value)}
              w={170}
            />
            <TextInput
              type="month"
              label="Last month"
              value={to}
              onChange={(event) => setTo(event.currentTarget.value)}
              w={170}
            />
            <Button type="submit" variant="default">
              Show
            </Button>
          </Group>
          {problem ? (
            <Text c="red.9" size="sm" mt={4} role="alert">
              {problem}
            </Text>
          ) : null}
        </form>
      ) : null}
    </Stack>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text component="dt" size="sm" c="gray.8">
        {label}
      </Text>
      <Text component="dd" m={0} fw={700} fz="xl">
        {value}
      </Text>
      {note ? (
        <Text component="dd" m={0} size="xs" c="gray.7">
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}

function Totals({ answer }: { answer: InsightsAnswer }) {
  const t = answer.totals;
  return (
    <section aria-labelledby="totals-title">
      <Title order={2} size="h3" id="totals-title" mb="xs">
        Totals
      </Title>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" m={0}>
        <Figure label="Funded" value={formatCents(t.fundedCents)} note="Credited to cards in the period" />
        <Figure label="Spent" value={formatCents(t.spentCents)} note="Purchases less refunds" />
        <Figure
          label="Utilisation"
          value={t.utilisation === null ? 'Nothing funded' : `${Math.round(t.utilisation * 100)}%`}
          note="Spent out of funded"
        />
        <Figure label="On cards now" value={formatCents(t.onCardsCents)} note="Spendable and on hold" />
        <Figure label="In the pool now" value={formatCents(t.inPoolCents)} />
        <Figure label="Redeemed" value={formatCents(t.redeemedCents)} note="Refunded to your card" />
        <Figure label="Fees" value={formatCents(t.feesCents)} note="Redemption fees" />
        <Figure label="Refunds" value={formatCents(t.refundedCents)} note="From merchants" />
      </SimpleGrid>
    </section>
  );
}

function Upcoming({ answer, from, to }: { answer: InsightsAnswer; from: string; to: string }) {
  const receipts = answer.receiptsOutstanding;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="receipts-title">
        <Title order={2} size="h4" id="receipts-title">
          Receipts outstanding
        </Title>
        {receipts.count === 0 ? (
          <Text>Every purchase has its receipt.</Text>
        ) : (
          <Text>
            {count(receipts.count, 'purchase', 'purchases')} ({formatCents(receipts.cents)}) waiting for a
            receipt.{' '}
            <Anchor component={Link} to={purchasesLink({ receipts: 'awaiting' })}>
              See them
            </Anchor>
          </Text>
        )}
      </Paper>
      <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="charge-title">
        <Title order={2} size="h4" id="charge-title">
          Next monthly charge
        </Title>
        {answer.nextCharge ? (
          <Text>
            {formatCents(answer.nextCharge.cents)} on {formatDate(answer.nextCharge.on)}.
          </Text>
        ) : (
          <Text>No monthly charge is planned.</Text>
        )}
      </Paper>
      <Text size="sm" c="gray.7" style={{ gridColumn: '1 / -1' }}>
        Figures for {periodLabel(from, to)}; receipts, the cards and the pool as they are now.
      </Text>
    </SimpleGrid>
  );
}

function sliceColumns() {
  return [
    { header: 'Spent', numeric: true, cell: (row: InsightSlice) => formatCents(row.cents) },
    { header: 'Purchases', numeric: true, cell: (row: InsightSlice) => row.count.toLocaleString('en-US') },
  ] as const;
}

function PeopleLists({
  people,
  downloading,
  onDownload,
}: {
  people: InsightsPeopleAnswer;
  /** The quiet list's CSV is being fetched. */
  downloading: boolean;
  onDownload: () => void;
}) {
  const { quiet, headingForDormancy } = people;
  // The server lists the quietest PEOPLE_LISTED and the PEOPLE_LISTED soonest to the pool, and counts the rest.
  const idle = quiet.people.slice(0, PEOPLE_LISTED);
  const dormant = headingForDormancy.people.slice(0, PEOPLE_LISTED);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="xs" component="section" aria-labelledby="idle-title">
        <Group justify="space-between" align="flex-end" gap="xs">
          <Title order={2} size="h3" id="idle-title">
            Not spent for 3 months or more
          </Title>
          <Button
            variant="default"
            size="xs"
            onClick={onDownload}
            loading={downloading}
            aria-label="Download people who have not spent for 3 months or more as CSV"
          >
            Download CSV
          </Button>
        </Group>
        {quiet.count === 0 ? (
          <Text c="gray.8">Everyone has bought something in the last 3 months.</Text>
        ) : (
          <Table striped verticalSpacing={4} captionSide="top">
            <Table.Caption style={CAPTION}>
              {count(quiet.count, 'person has', 'people have')} made no purchase this month or the two before.
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Last purchase</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {idle.map((p) => (
                <Table.Tr key={p.userId}>
                  <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                    {p.name}
                    {p.status !== 'active' ? (
                      <Text span size="sm" c="gray.7">
                        {' '}
                        ({capitalise(p.status)})
                      </Text>
                    ) : null}
                  </Table.Th>
                  <Table.Td>{p.lastSpentMonth ? monthLabel(p.lastSpentMonth, 'long') : 'Never'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {quiet.count > idle.length ? (
          <Text size="sm" c="gray.7">
            And {count(quiet.count - idle.length, 'more person', 'more people')}: the CSV lists everyone.
          </Text>
        ) : null}
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="dormancy-title">
        <Title order={2} size="h3" id="dormancy-title">
          Heading for dormancy
        </Title>
        {headingForDormancy.count === 0 ? (
          <Text c="gray.8">Nobody's money is due to go to the pool.</Text>
        ) : (
          <Table striped verticalSpacing={4} captionSide="top">
            <Table.Caption style={CAPTION}>
              Unless they buy something, their money goes to the team pool on this day.
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">To the pool on</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {dormant.map((p) => (
                <Table.Tr key={p.userId}>
                  <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                    {p.name}
                  </Table.Th>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {p.dormancyDay ? formatDate(p.dormancyDay) : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {headingForDormancy.count > dormant.length ? (
          <Text size="sm" c="gray.7">
            And {count(headingForDormancy.count - dormant.length, 'more person', 'more people')}.
          </Text>
        ) : null}
      </Stack>
    </SimpleGrid>
  );
}

function Report({
  answer,
  people,
  phone,
}: {
  answer: InsightsAnswer;
  people: InsightsPeopleAnswer;
  phone: boolean;
}) {
  const { from, to } = answer.period;
  const suffix = from === to ? from : `${from}-to-${to}`;
  const inPeriod = (filter: PurchaseFilter) => purchasesLink({ from, to, ...filter });
  const noSpend = 'No purchases in this period.';

  const skills = answer.bySkill.map((s) => ({ ...s, label: s.key }));
  const media = answer.byMedia.map((s) => ({
    ...s,
    label: MEDIA_LABELS[s.key as keyof typeof MEDIA_LABELS] ?? s.key,
  }));
  const merchants = answer.byMerchant.map((s) => ({ ...s, label: s.key }));
  const { fetching, download } = useListDownload(from, to);
  const topSpenders = people.topSpenders
    .slice(0, TOP_SPENDERS)
    .map((p) => ({ key: p.userId, label: spenderLabel(p), cents: p.spentCents }));
  const downloadSpenders = () =>
    void download('spenders', (all) =>
      saveCsv(
        `insights-people-${suffix}.csv`,
        toCsv(
          ['Person', 'Email', 'Spent (USD)'],
          all.people.map((p) => [
            spreadsheetSafe(spenderLabel(p)),
            spreadsheetSafe(p.email),
            decimalAmount(p.spentCents),
          ]),
        ),
      ),
    );
  const downloadQuiet = () =>
    void download('quiet', (all) =>
      saveCsv(
        `insights-not-spending-${suffix}.csv`,
        toCsv(
          ['Name', 'Email', 'Status', 'Last month with a purchase', 'Money goes to the pool on'],
          all.people.map((p) => [
            spreadsheetSafe(p.name),
            spreadsheetSafe(p.email),
            p.status,
            p.lastSpentMonth ?? 'Never',
            p.dormancyDay ?? '',
          ]),
        ),
      ),
    );
  const nothingSpent = answer.totals.spentCents === 0 && answer.byMerchant.length === 0;

  const slices = (
    id: string,
    title: string,
    nameHeader: string,
    rows: (InsightSlice & { label: string })[],
    filterKey: 'skill' | 'media' | 'merchant',
    note?: string,
  ) => (
    <Breakdown
      id={id}
      title={title}
      caption={`${title}, ${periodLabel(from, to)}: net spend and number of purchases.`}
      empty={nothingSpent}
      emptyText={noSpend}
      nameHeader={nameHeader}
      rows={rows}
      name={(row) => row.label}
      rowKey={(row) => row.key}
      href={(row) => (row.count > 0 ? inPeriod({ [filterKey]: row.key }) : undefined)}
      columns={sliceColumns()}
      note={note}
      chart={
        <HorizontalBars
          phone={phone}
          data={rows.slice(0, filterKey === 'merchant' ? TOP : rows.length).map((row) => ({
            label: row.label,
            cents: row.cents,
            href: row.count > 0 ? inPeriod({ [filterKey]: row.key }) : undefined,
          }))}
        />
      }
      onDownload={() => saveCsv(`insights-${id}-${suffix}.csv`, breakdownCsv(nameHeader, rows))}
    />
  );

  return (
    <Stack gap="xl">
      <Totals answer={answer} />
      <Upcoming answer={answer} from={from} to={to} />
      {slices('skill-areas', 'Spend by skill area', 'Skill area', skills, 'skill')}
      {slices('media-types', 'Spend by media type', 'Media type', media, 'media')}
      {slices(
        'merchants',
        'Spend by merchant',
        'Merchant',
        merchants,
        'merchant',
        merchants.length > TOP
          ? `The chart shows the ${TOP} largest; the table and the CSV list all.`
          : undefined,
      )}
      <Breakdown
        id="people"
        title="Spend by person"
        caption={`Spend by person, ${periodLabel(from, to)}: the ${TOP_SPENDERS} who spent most.`}
        empty={topSpenders.length === 0}
        emptyText={noSpend}
        nameHeader="Person"
        rows={topSpenders}
        name={(row) => row.label}
        rowKey={(row) => row.key}
        href={(row) => inPeriod({ person: row.key })}
        columns={[{ header: 'Spent', numeric: true, cell: (row) => formatCents(row.cents) }]}
        note={people.spenderCount > TOP_SPENDERS ? 'The CSV lists everyone who spent.' : undefined}
        chart={
          <HorizontalBars
            phone={phone}
            data={topSpenders.map((row) => ({
              label: row.label,
              cents: row.cents,
              href: inPeriod({ person: row.key }),
            }))}
          />
        }
        onDownload={downloadSpenders}
        downloading={fetching === 'spenders'}
      />
      <Breakdown
        id="months"
        title="Funded and spent by month"
        caption={`Money credited to cards and net spend each month, ${periodLabel(from, to)}.`}
        empty={answer.byMonth.every((m) => m.fundedCents === 0 && m.spentCents === 0)}
        emptyText="Nothing was funded or spent in this period."
        nameHeader="Month"
        rows={answer.byMonth}
        name={(row) => monthLabel(row.month, 'long')}
        rowKey={(row) => row.month}
        href={(row) => (row.spentCents !== 0 ? purchasesLink({ from: row.month, to: row.month }) : undefined)}
        columns={[
          { header: 'Funded', numeric: true, cell: (row) => formatCents(row.fundedCents) },
          { header: 'Spent', numeric: true, cell: (row) => formatCents(row.spentCents) },
        ]}
        chart={
          <MonthBars
            series={[
              { key: 'funded', name: 'Funded' },
              { key: 'spent', name: 'Spent' },
            ]}
            data={answer.byMonth.map((row) => ({
              label: monthLabel(row.month),
              funded: row.fundedCents,
              spent: row.spentCents,
              href: row.spentCents !== 0 ? purchasesLink({ from: row.month, to: row.month }) : undefined,
            }))}
          />
        }
        onDownload={() =>
          saveCsv(
            `insights-months-${suffix}.csv`,
            toCsv(
              ['Month', 'Funded (USD)', 'Spent (USD)'],
              answer.byMonth.map((row) => [
                row.month,
                decimalAmount(row.fundedCents),
                decimalAmount(row.spentCents),
              ]),
            ),
          )
        }
      />
      <PeopleLists people={people} downloading={fetching === 'quiet'} onDownload={downloadQuiet} />
    </Stack>
  );
}

export function InsightsPage() {
  useDocumentTitle('Insights');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [params] = useSearchParams();
  const period = periodFrom(params, teamMonth());
  const [data, setData] = useState<{ answer: InsightsAnswer; people: InsightsPeopleAnswer }>();
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');

  useEffect(() => {
    const abort = new AbortController();
    const query = { from: period.from, to: period.to };
    setStatus('loading');
    Promise.all([readInsights(query, abort.signal), readInsightsPeople(query, abort.signal)])
      .then(([answer, people]) => {
        setData({ answer, people });
        setStatus('ready');
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorMessage(e));
        setStatus('error');
      });
    return () => abort.abort();
  }, [period.from, period.to]);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{pageHeadings.insights.title}</Title>
        <Text c="gray.7">{pageHeadings.insights.lead}</Text>
      </div>
      <PeriodPicker period={period} phone={phone} />
      {status === 'error' ? (
        <Alert color="red" title="Could not load insights">
          {error}
        </Alert>
      ) : null}
      {status === 'loading' ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text>Loading insights for {periodLabel(period.from, period.to)}…</Text>
        </Group>
      ) : null}
      {status === 'ready' && data ? <Report answer={data.answer} people={data.people} phone={phone} /> : null}
    </Stack>
  );
}
