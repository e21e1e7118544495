import {
  type AccountStatement,
  API_ROUTES,
  type BalanceAtInstant,
  formatErrorMessage,
  keptOnOneLine,
  LIMITS,
  type User,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import { useEffect, useState } from 'react';
import { type RaRecord, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { apiErrorOf, fetchWithSession, httpClient } from '../providers/http-client';
import { EmptyState } from '../shared/empty-state';
import { Money, formatAmount } from '../shared/money';
import { useLang } from '../shared/use-lang';

/** A calendar day as `YYYY-MM-DD`, as the date inputs hold it. */
type IsoDay = string;

const pad = (value: number) => String(value).padStart(2, '0');
const dayOf = (date: Date): IsoDay => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The first instant of a day (plus `addDays`) in this browser's time zone. */
function startOfDay(day: IsoDay, addDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date + addDays);
}

/** [first instant of `from`, first instant of the day after `to`): the day picked as the last is included. */
function periodOf(from: IsoDay, to: IsoDay): { from: string; to: string } | null {
  if (!from || !to || from > to) return null;
  const period = { from: startOfDay(from).toISOString(), to: startOfDay(to, 1).toISOString() };
  const days = Math.round((Date.parse(period.to) - Date.parse(period.from)) / 86_400_000);
  return days > LIMITS.statementPeriodMaxDays ? null : period;
}

const query = (values: Record<string, string>) => `?${new URLSearchParams(values).toString()}`;

function formatInstant(value: string, lang: string): string {
  return keptOnOneLine(
    new Date(value).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  );
}

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; statement: AccountStatement };

/**
 * The client's statement on their detail (docs/product.md, Ledger, Statements; ADR 0096): the same the client reads
 * in the portal, for a period staff choose, with its CSV and PDF and the balance on any day. Admins and managers read it.
 */
export function StatementTab() {
  const record = useRecordContext<User & RaRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const now = new Date();
  const [from, setFrom] = useState<IsoDay>(`${dayOf(now).slice(0, 8)}01`);
  const [to, setTo] = useState<IsoDay>(dayOf(now));
  const [day, setDay] = useState<IsoDay>(dayOf(now));
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [balanceOn, setBalanceOn] = useState<BalanceAtInstant | null>(null);
  const userUuid = record?.userUuid;
  const period = periodOf(from, to);
  const headers = new Headers({ 'Accept-Language': lang });

  useEffect(() => {
    if (!userUuid || !period) return;
    let current = true;
    setState({ status: 'loading' });
    httpClient<AccountStatement>(`${API_ROUTES.userStatement(userUuid)}${query(period)}`, { headers })
      .then(({ json }) => current && setState({ status: 'ready', statement: json }))
      .catch(() => current && setState({ status: 'failed' }));
    return () => {
      current = false;
    };
    // The period's instants and the language name the request; `headers` is rebuilt from `lang` on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userUuid, period?.from, period?.to, lang]);

  useEffect(() => {
    if (!userUuid || !day) return;
    let current = true;
    const at = new Date(startOfDay(day, 1).getTime() - 1).toISOString();
    httpClient<BalanceAtInstant>(`${API_ROUTES.userBalanceAt(userUuid)}${query({ at })}`)
      .then(({ json }) => current && setBalanceOn(json))
      .catch(() => current && setBalanceOn(null));
    return () => {
      current = false;
    };
  }, [userUuid, day]);

  if (!record || !userUuid) return null;

  /** Fetches the statement as a file (CSV or PDF) in the console's language and this browser's zone, and saves it. */
  const download = async (format: 'csv' | 'pdf') => {
    if (!period) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const route = format === 'csv' ? API_ROUTES.userStatementCsv(userUuid) : API_ROUTES.userStatementPdf(userUuid);
    const { response, refreshAttempted } = await fetchWithSession(`${route}${query({ ...period, timeZone })}`, {
      headers,
    });
    if (!response.ok) throw await apiErrorOf(response, refreshAttempted);
    // The blob keeps the file's bytes as sent, a CSV's byte order mark included.
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `statement-${from}_${to}.${format}`;
    link.click();
    URL.revokeObjectURL(url);
  };

  const figures: Array<[string, number, string]> =
    state.status === 'ready'
      ? [
          ['opening', state.statement.openingBalance, 'statement-opening'],
          ['credits', state.statement.creditsTotal, 'statement-credits'],
          ['debits', state.statement.debitsTotal, 'statement-debits'],
          ['closing', state.statement.closingBalance, 'statement-closing'],
        ]
      : [];

  return (
    <Stack spacing={2} data-testid="client-statement" sx={{ py: 1 }}>
      <Typography color="text.secondary">{translate('kupa.clients.statement.intro')}</Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      >
        <TextField
          type="date"
          size="small"
          label={translate('kupa.clients.statement.from')}
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          sx={{ width: { sm: 200 } }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'statement-from', max: to } }}
        />
        <TextField
          type="date"
          size="small"
          label={translate('kupa.clients.statement.to')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          sx={{ width: { sm: 200 } }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'statement-to', min: from } }}
        />
        {(['csv', 'pdf'] as const).map((format) => (
          <Button
            key={format}
            variant="outlined"
            startIcon={<DownloadOutlinedIcon />}
            disabled={!period}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            onClick={() =>
              void download(format).catch((error: unknown) =>
                notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
              )
            }
            data-testid={`statement-${format}`}
          >
            {translate(`kupa.clients.statement.download_${format}`)}
          </Button>
        ))}
      </Stack>
      {!period ? (
        <Alert severity="warning" data-testid="statement-period-problem">
          {formatErrorMessage(from > to ? 'error.validation.range.reversed' : 'error.statement.period.too.long', lang, {
            maxDays: LIMITS.statementPeriodMaxDays,
          })}
        </Alert>
      ) : state.status === 'loading' ? (
        <CircularProgress size={24} />
      ) : state.status === 'failed' ? (
        <Alert severity="error">{translate('kupa.clients.statement.failed')}</Alert>
      ) : (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 2 }}>
            {figures.map(([key, amount, testId]) => (
              <Paper key={key} variant="outlined" sx={{ p: 2 }}>
                <Typography variant="body2" color="text.secondary">
                  {translate(`kupa.clients.statement.${key}`)}
                </Typography>
                <Typography variant="h6" component="p">
                  <Money amount={amount} testId={testId} />
                </Typography>
              </Paper>
            ))}
          </Box>
          {state.statement.lines.length === 0 ? (
            <EmptyState testId="statement-empty" title={translate('kupa.clients.statement.empty')} />
          ) : (
            <>
              {/* From the medium breakpoint up a table; below it each line is a card, so nothing scrolls sideways. */}
              <TableContainer component={Paper} variant="outlined" sx={{ display: { xs: 'none', md: 'block' } }}>
                <Table size="small" data-testid="statement-lines">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('kupa.clients.statement.date')}</TableCell>
                      <TableCell>{translate('kupa.clients.statement.description')}</TableCell>
                      <TableCell align="right">{translate('kupa.clients.statement.amount')}</TableCell>
                      <TableCell align="right">{translate('kupa.clients.statement.balance_after')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {state.statement.lines.map((line, index) => (
                      <TableRow key={`${line.occurredAt}-${index}`} data-testid="statement-line">
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatInstant(line.occurredAt, lang)}</TableCell>
                        <TableCell data-testid="statement-line-description">{line.description}</TableCell>
                        <TableCell align="right">
                          <Money amount={line.amount} signed testId="statement-line-amount" />
                        </TableCell>
                        <TableCell align="right">
                          <Money amount={line.balanceAfter} testId="statement-line-balance" />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <Stack spacing={1} component="ul" sx={{ display: { xs: 'flex', md: 'none' }, p: 0, m: 0 }}>
                {state.statement.lines.map((line, index) => (
                  <Paper
                    key={`${line.occurredAt}-${index}`}
                    component="li"
                    variant="outlined"
                    sx={{ p: 1.5, listStyle: 'none' }}
                    data-testid="statement-card"
                  >
                    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
                      <Typography>{line.description}</Typography>
                      <Money amount={line.amount} signed />
                    </Stack>
                    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', mt: 0.5 }}>
                      <Typography variant="body2" color="text.secondary">
                        {formatInstant(line.occurredAt, lang)}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {translate('kupa.clients.statement.balance_after')} <Money amount={line.balanceAfter} />
                      </Typography>
                    </Stack>
                  </Paper>
                ))}
              </Stack>
            </>
          )}
        </>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5 }}>
          {translate('kupa.clients.statement.balance_on_title')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            type="date"
            size="small"
            label={translate('kupa.clients.statement.balance_on_day')}
            value={day}
            onChange={(event) => setDay(event.target.value)}
            sx={{ width: { sm: 200 } }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'balance-on-day' } }}
          />
          <Typography data-testid="balance-on-answer" aria-live="polite">
            {balanceOn && day
              ? translate('kupa.clients.statement.balance_on_answer', {
                  day: keptOnOneLine(
                    startOfDay(day).toLocaleDateString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium' }),
                  ),
                  amount: `\u2066${formatAmount(balanceOn.balance, lang)}\u2069`,
                })
              : null}
          </Typography>
        </Stack>
      </Paper>
    </Stack>
  );
}
