import { useId, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ClearIcon from '@mui/icons-material/Clear';
import { LANGUAGE_LOCALES, type Language } from '@kupa/proto';
import { useT } from '../i18n/i18n';
import { mirrorInRtl } from './mirror-in-rtl';

/** A calendar day as `YYYY-MM-DD`, the form the API's date filters take. */
type IsoDay = string;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days are handled at UTC midnight, so that no time zone moves a day across midnight. */
function dayOf(iso: IsoDay): Date | null {
  const match = ISO_DAY.exec(iso);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

function isoOf(date: Date): IsoDay {
  return date.toISOString().slice(0, 10);
}

/** Formatters are costly to build and a calendar formats some sixty values: each is built once and kept. */
const FORMATS = new Map<string, Intl.DateTimeFormat>();
function format(lang: Language, options: Intl.DateTimeFormatOptions, date: Date): string {
  const key = `${lang}:${JSON.stringify(options)}`;
  let formatter = FORMATS.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(LANGUAGE_LOCALES[lang], { ...options, timeZone: 'UTC' });
    FORMATS.set(key, formatter);
  }
  return formatter.format(date);
}

/** The weeks of a month, Sunday first (as in Israel and the United States), padded with nulls. */
function weeksOf(year: number, month: number): Array<Array<Date | null>> {
  const first = new Date(Date.UTC(year, month, 1));
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells: Array<Date | null> = Array.from({ length: first.getUTCDay() }, () => null);
  for (let day = 1; day <= days; day += 1) cells.push(new Date(Date.UTC(year, month, day)));
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** A week from Sunday (1 to 7 February 2026), for the weekdays' names. */
const A_WEEK = Array.from({ length: 7 }, (_, index) => new Date(Date.UTC(2026, 1, 1 + index)));

interface DateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or empty for none. */
  value: IsoDay;
  onChange: (value: IsoDay) => void;
  min?: IsoDay;
  max?: IsoDay;
  testId: string;
  size?: 'small' | 'medium';
}

/**
 * A date chosen from a calendar in the page's language (docs/adr/0079-say-what-happened-and-keep-what-was-typed.md).
 * The browser's own date input writes and offers dates in the browser's language, whatever the page says: a Hebrew
 * page in an English browser showed `mm/dd/yyyy`. Here the field shows the date as the page's language writes it, and
 * the calendar names its months and weekdays in that language, running right to left on a Hebrew page.
 */
export function DateField({ label, value, onChange, min, max, testId, size = 'medium' }: DateFieldProps) {
  const { t, lang } = useT();
  const anchor = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const selected = dayOf(value);
  const today = new Date();
  const [shown, setShown] = useState(() => ({
    year: (selected ?? today).getUTCFullYear(),
    month: (selected ?? today).getUTCMonth(),
  }));
  const minDay = min ? dayOf(min) : null;
  const maxDay = max ? dayOf(max) : null;
  const outOfRange = (day: Date) => (minDay !== null && day < minDay) || (maxDay !== null && day > maxDay);

  const openCalendar = () => {
    const start = selected ?? today;
    setShown({ year: start.getUTCFullYear(), month: start.getUTCMonth() });
    setOpen(true);
  };
  const moveMonth = (step: number) =>
    setShown(({ year, month }) => {
      const next = new Date(Date.UTC(year, month + step, 1));
      return { year: next.getUTCFullYear(), month: next.getUTCMonth() };
    });

  return (
    <>
      <TextField
        ref={anchor}
        size={size}
        label={label}
        value={selected ? format(lang, { dateStyle: 'medium' }, selected) : ''}
        onClick={openCalendar}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
            event.preventDefault();
            openCalendar();
          }
        }}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: {
            readOnly: true,
            'data-testid': testId,
            'data-value': value,
            'aria-haspopup': 'dialog',
            placeholder: t('date.choose'),
            style: { cursor: 'pointer' },
          },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                {selected ? (
                  <IconButton
                    size="small"
                    edge="end"
                    aria-label={t('date.clear')}
                    data-testid={`${testId}-clear`}
                    onClick={(event) => {
                      event.stopPropagation();
                      onChange('');
                    }}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                ) : (
                  <CalendarMonthOutlinedIcon fontSize="small" color="action" aria-hidden />
                )}
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover
        open={open}
        anchorEl={anchor.current}
        onClose={() => setOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: { role: 'dialog', 'aria-labelledby': titleId, 'data-testid': `${testId}-calendar` } as object,
        }}
      >
        <Box sx={{ p: 1.5, width: 296 }}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <IconButton size="small" aria-label={t('date.previousMonth')} onClick={() => moveMonth(-1)}>
              <ChevronLeftIcon sx={mirrorInRtl} />
            </IconButton>
            <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} aria-live="polite">
              {format(lang, { month: 'long', year: 'numeric' }, new Date(Date.UTC(shown.year, shown.month, 1)))}
            </Typography>
            <IconButton size="small" aria-label={t('date.nextMonth')} onClick={() => moveMonth(1)}>
              <ChevronRightIcon sx={mirrorInRtl} />
            </IconButton>
          </Stack>
          <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', textAlign: 'center' }}>
            <thead>
              <tr>
                {A_WEEK.map((day) => (
                  <Box
                    component="th"
                    key={day.getTime()}
                    scope="col"
                    abbr={format(lang, { weekday: 'long' }, day)}
                    sx={{ fontWeight: 400, color: 'text.secondary', fontSize: 12, pb: 0.5 }}
                  >
                    {format(lang, { weekday: 'narrow' }, day)}
                  </Box>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeksOf(shown.year, shown.month).map((week, index) => (
                <tr key={index}>
                  {week.map((day, cell) => (
                    <Box component="td" key={cell} sx={{ p: 0.25 }}>
                      {day && (
                        <Button
                          size="small"
                          variant={value === isoOf(day) ? 'contained' : 'text'}
                          disabled={outOfRange(day)}
                          aria-label={format(lang, { dateStyle: 'full' }, day)}
                          aria-pressed={value === isoOf(day)}
                          data-day={isoOf(day)}
                          onClick={() => {
                            onChange(isoOf(day));
                            setOpen(false);
                          }}
                          sx={{ minWidth: 36, width: 36, height: 36, p: 0, borderRadius: '50%' }}
                        >
                          {format(lang, { day: 'numeric' }, day)}
                        </Button>
                      )}
                    </Box>
                  ))}
                </tr>
              ))}
            </tbody>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
