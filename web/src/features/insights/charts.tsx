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

/** "$1.2k": axis ticks only; the table and tooltip say the exact amount. */
function shortDollars(cents: number): string {
  const dollars = cents / 100;
  if (Math.abs(dollars) >= 1000) return `$${(dollars / 1000).toFixed(dollars % 1000 === 0 ? 0 : 1)}k`;
  return `$${Math.round(dollars)}`;
}

const tooltipMoney = (value: unknown) => formatCents(Number(value));

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
        <BarChart data={[...data]} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--mantine-color-gray-3)" />
          <XAxis type="number" tickFormatter={shortDollars} tick={TICK} allowDecimals={false} />
          <YAxis
            type="category"
            dataKey="label"
            width={phone ? 104 : 160}
            tick={TICK}
            interval={0}
            tickFormatter={(text: string) => (phone && text.length > 16 ? `${text.slice(0, 15)}…` : text)}
          />
          <Tooltip formatter={tooltipMoney} cursor={{ fill: 'var(--mantine-color-gray-1)' }} />
          <Bar
            dataKey="cents"
            name="Spent"
            fill={SERIES_COLOURS[0]}
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
        <BarChart data={[...data]} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--mantine-color-gray-3)" />
          <XAxis dataKey="label" tick={TICK} />
          <YAxis tickFormatter={shortDollars} tick={TICK} width={56} allowDecimals={false} />
          <Tooltip formatter={tooltipMoney} cursor={{ fill: 'var(--mantine-color-gray-1)' }} />
          <Legend wrapperStyle={{ fontSize: 12, color: 'var(--mantine-color-gray-8)' }} />
          {series.map((s, index) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stackId={stacked ? 'spend' : undefined}
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
