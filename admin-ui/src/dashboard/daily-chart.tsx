import { formatDollarsForIsolate, type Language } from '@kupa/proto';
import { Box, Typography, useTheme } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { directionOf } from '../i18n/language';
import { isolateLtr } from '../shared/ltr';
import { formatChartDay, formatCompactDollars, niceBound } from './figures';

export interface ChartDay {
  date: string;
  amount: number;
}

interface DailyChartProps {
  title: string;
  days: ChartDay[];
  lang: Language;
  color: string;
  testId: string;
}

/** The drawing's width before the page has measured it (and in test environments, which measure nothing). */
const DEFAULT_WIDTH = 640;
/** Below this the bars get too thin to read; a narrower card scales the drawing down rather than crowding it. */
const MIN_WIDTH = 300;
const HEIGHT = 220;
/** Axis and date labels: one SVG unit is one CSS pixel (the drawing is as wide as its card), so this is 12 px. */
const LABEL_FONT_SIZE = 12;
/** Half the widest day label ("30 Nov", "30 בנוב׳") at that size: a label's centre keeps this far from the edges. */
const DATE_LABEL_HALF_WIDTH = 26;
const AXIS_WIDTH = 64;
const DATE_ROW_HEIGHT = 28;
const TOP = 12;
/** Every how many days the time axis names a day, counting back from today, which is always named. */
const DATE_LABEL_EVERY = 7;

/**
 * A bar per day, in SVG drawn by hand (docs/adr/0027-dashboard.md): time runs in the reading direction, so on a
 * Hebrew page the oldest day is at the right and today at the left, and the money axis stands at the start side.
 * Amounts are written in the language's number format and kept left to right. For screen readers the picture has a
 * summary and the same figures as a table.
 */
/**
 * The width of the element, followed as it changes: the chart draws in CSS pixels, so its labels keep their size at
 * any card width instead of shrinking with a scaled-down drawing (ADR 0078).
 */
function useMeasuredWidth<E extends Element>(): [RefObject<E | null>, number] {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(Math.max(measured, MIN_WIDTH));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function DailyChart({ title, days, lang, color, testId }: DailyChartProps) {
  const [figureRef, width] = useMeasuredWidth<HTMLElement>();
  const theme = useTheme();
  const translate = useTranslate();
  const titleId = useId();
  const rtl = directionOf(lang) === 'rtl';
  const amounts = days.map((day) => day.amount);
  const top = niceBound(Math.max(0, ...amounts));
  const bottom = -niceBound(-Math.min(0, ...amounts));
  const span = top - bottom || 1;
  const plotWidth = width - AXIS_WIDTH;
  const plotHeight = HEIGHT - TOP - DATE_ROW_HEIGHT;
  const plotStart = rtl ? 0 : AXIS_WIDTH;
  const slot = plotWidth / Math.max(days.length, 1);
  const y = (amount: number) => TOP + ((top - amount) / span) * plotHeight;
  // The slot of the day at `index` (0 = oldest), counted from the start side of the reading direction.
  const slotX = (index: number) => plotStart + (rtl ? days.length - 1 - index : index) * slot;
  const axisX = rtl ? width - AXIS_WIDTH + 6 : AXIS_WIDTH - 6;
  const ticks = [...new Set([top, top / 2, 0, bottom].filter((tick) => tick >= bottom))];
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  const best = days.reduce<ChartDay | null>((found, day) => (!found || day.amount > found.amount ? day : found), null);
  const empty = amounts.every((amount) => amount === 0);
  const summary = empty
    ? translate('kupa.dashboard.chart_empty')
    : translate('kupa.dashboard.chart_summary', {
        total: isolateLtr(formatDollarsForIsolate(total, lang)),
        best: isolateLtr(formatDollarsForIsolate(best?.amount ?? 0, lang)),
        day: formatChartDay(best?.date ?? '', lang, 'long'),
      });

  return (
    <Box component="figure" ref={figureRef} sx={{ m: 0 }} data-testid={testId}>
      <Typography id={titleId} component="figcaption" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={`${titleId}-summary`}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width="100%"
        style={{ display: 'block' }}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={plotStart}
              x2={plotStart + plotWidth}
              y1={y(tick)}
              y2={y(tick)}
              stroke={tick === 0 ? theme.palette.text.secondary : theme.palette.divider}
              strokeWidth={tick === 0 ? 1.5 : 1}
            />
            <text
              x={axisX}
              y={y(tick)}
              dy="0.35em"
              // Digits and the dollar sign stay left to right; the label hugs the plot on either side.
              direction="ltr"
              textAnchor={rtl ? 'start' : 'end'}
              fontSize={LABEL_FONT_SIZE}
              fill={theme.palette.text.secondary}
              data-testid={`${testId}-tick`}
            >
              {formatCompactDollars(tick, lang)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const x = slotX(index) + slot * 0.15;
          const [from, to] = [y(Math.max(day.amount, 0)), y(Math.min(day.amount, 0))];
          const named = (days.length - 1 - index) % DATE_LABEL_EVERY === 0;
          return (
            <g key={day.date} data-testid={`${testId}-day`} data-date={day.date} data-x={Math.round(x)}>
              {day.amount !== 0 ? (
                <rect
                  x={x}
                  y={from}
                  width={slot * 0.7}
                  height={Math.max(to - from, 1)}
                  rx={2}
                  fill={day.amount < 0 ? theme.palette.error.main : color}
                >
                  <title>{`${formatChartDay(day.date, lang)}: ${formatDollarsForIsolate(day.amount, lang)}`}</title>
                </rect>
              ) : null}
              {named ? (
                <text
                  // The first and last labels would overhang the drawing's edges: their centres keep inside.
                  x={Math.min(Math.max(slotX(index) + slot / 2, DATE_LABEL_HALF_WIDTH), width - DATE_LABEL_HALF_WIDTH)}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  fontSize={LABEL_FONT_SIZE}
                  fill={theme.palette.text.secondary}
                >
                  {formatChartDay(day.date, lang)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <Typography id={`${titleId}-summary`} variant="body2" color="text.secondary" data-testid={`${testId}-summary`}>
        {summary}
      </Typography>
      {/* Hidden by a block box: a table ignores the height and overflow that hide it, and its rows would still
          lengthen the page by their full height (blank space to scroll into). */}
      <Box sx={visuallyHidden} data-testid={`${testId}-table`}>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{translate('kupa.dashboard.day')}</th>
              <th scope="col">{translate('kupa.dashboard.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatChartDay(day.date, lang, 'long')}</th>
                <td>
                  <bdi dir="ltr">{formatDollarsForIsolate(day.amount, lang)}</bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Box>
  );
}
