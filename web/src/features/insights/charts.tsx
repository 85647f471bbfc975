/**
 * The Insights charts (recharts, themed with Mantine's CSS variables). A
 * chart is for looking: it is hidden from assistive technology, and the
 * table beside it holds the same numbers and the links. A pointer on a bar
 * follows that bar's link to the matching purchases. Bars do not move for
 * people who prefer reduced motion.
 */
import { useReducedMotion } from '@mantine/hooks';
import { formatCents } from '@shared/domain/money';
import { useNavigate } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One colour per series, dark enough against white for bars beside text. */
export const SERIES_COLOURS = [
  'var(--mantine-color-blue-7)',
  'var(--mantine-color-teal-8)',
  'var(--mantine-color-grape-7)',
  'var(--mantine-color-orange-8)',
  'var(--mantine-color-cyan-8)',
  'var(--mantine-color-pink-7)',
  'var(--mantine-color-indigo-7)',
  'var(--mantine-color-gray-6)',
] as const;

const TICK = { fill: 'var(--mantine-color-gray-8)', fontSize: 12 };

/**
 * The charts plot dollars (cents / 100), so the axis gets round ticks ($0, $5,
 * $10); the table and the tooltip say the exact amount.
 */
const dollars = (cents: number) => cents / 100;

/** "$1.2k": axis ticks only. */
function shortDollars(value: number): string {
  if (Math.abs(value) >= 1000) return `$${(value / 1000).toFixed(value % 1000 === 0 ? 0 : 1)}k`;
  return `$${Math.round(value)}`;
}

const tooltipMoney = (value: unknown) => formatCents(Math.round(Number(value) * 100));

/** Long names wrap on two lines beside the bar; past that they are cut (the table has them whole). */
const tickName = (text: string) => (text.length > 28 ? `${text.slice(0, 27)}…` : text);

export interface BarDatum {
  label: string;
  cents: number;
  /** The matching purchases; none when there is nothing to list. */
  href?: string;
}

/** Horizontal bars, one per row: long names (skill areas, merchants, people) stay readable on a phone. */
export function HorizontalBars({ data, phone }: { data: readonly BarDatum[]; phone: boolean }) {
  const navigate = useNavigate();
  const still = useReducedMotion();
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 36 * data.length + 48 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={data.map((d) => ({ ...d, dollars: dollars(d.cents) }))}
          layout="vertical"
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
        >
          <CartesianGrid horizontal={false} stroke="var(--mantine-color-gray-3)" />
          <XAxis type="number" tickFormatter={shortDollars} tick={TICK} />
          <YAxis
            type="category"
            dataKey="label"
            width={phone ? 112 : 160}
            tick={TICK}
            interval={0}
            tickFormatter={tickName}
          />
          <Tooltip formatter={tooltipMoney} cursor={{ fill: 'var(--mantine-color-gray-1)' }} />
          <Bar
            dataKey="dollars"
            name="Spent"
            fill={SERIES_COLOURS[0]}
            maxBarSize={28}
            isAnimationActive={!still}
            cursor="pointer"
            onClick={(bar) => {
              const href = (bar.payload as BarDatum | undefined)?.href;
              if (href) navigate(href);
            }}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export interface MonthDatum {
  label: string;
  href?: string;
  [series: string]: number | string | undefined;
}

/** Bars by month: side by side (funded and spent), or stacked (spend by skill area). */
export function MonthBars({
  data,
  series,
  stacked = false,
}: {
  data: readonly MonthDatum[];
  series: readonly { key: string; name: string }[];
  stacked?: boolean;
}) {
  const navigate = useNavigate();
  const still = useReducedMotion();
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 280 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={data.map((d) => ({
            ...d,
            ...Object.fromEntries(series.map((x) => [x.key, dollars(Number(d[x.key] ?? 0))])),
          }))}
          margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
        >
          <CartesianGrid vertical={false} stroke="var(--mantine-color-gray-3)" />
          <XAxis dataKey="label" tick={TICK} />
          <YAxis tickFormatter={shortDollars} tick={TICK} width={56} />
          <Tooltip formatter={tooltipMoney} cursor={{ fill: 'var(--mantine-color-gray-1)' }} />
          <Legend
            wrapperStyle={{ fontSize: 12 }}
            formatter={(name: string) => <span style={{ color: 'var(--mantine-color-gray-8)' }}>{name}</span>}
          />
          {series.map((s, index) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stackId={stacked ? 'spend' : undefined}
              maxBarSize={56}
              fill={SERIES_COLOURS[index % SERIES_COLOURS.length]}
              isAnimationActive={!still}
              cursor={data.some((d) => d.href) ? 'pointer' : undefined}
              onClick={(bar) => {
                const href = (bar.payload as MonthDatum | undefined)?.href;
                if (href) navigate(href);
              }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** A table's caption: left, and dark enough to read (Mantine's default is a light grey). */
export const CAPTION = { textAlign: 'left', color: 'var(--mantine-color-gray-8)' } as const;
