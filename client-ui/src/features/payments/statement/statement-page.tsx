import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import { type AccountStatement, formatClientErrorMessage, type Language, LIMITS } from '@kupa/proto';
import { errorMessageFor } from '../../../lib/api/api-error';
import { useMe } from '../../../lib/api/use-me';
import { formatDate, formatDateTime, formatDollars, formatSignedDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { DateField } from '../../../lib/ui/date-field';
import { EmptyState, Page } from '../../../lib/ui/page';
import { saveCsv, saveFile, statementApi } from './statement-api';
import {
  browserTimeZone,
  type IsoDay,
  monthStartOf,
  periodOf,
  periodProblem,
  startOfDay,
  todayOf,
} from './statement-period';
import { STATEMENT_TEXT } from './statement-text';

type TextKey = keyof typeof STATEMENT_TEXT;

function Money({ amount, signed, testId }: { amount: number; signed?: boolean; testId?: string }) {
  const { lang } = useT();
  const colour = !signed || amount === 0 ? undefined : amount > 0 ? 'success.main' : 'error.main';
  return (
    <Box component="bdi" dir="ltr" data-testid={testId} sx={{ color: colour, whiteSpace: 'nowrap' }}>
      {signed ? formatSignedDollars(amount, lang) : formatDollars(amount, lang)}
    </Box>
  );
}

/** Opening, in, out, closing: the period's four figures, side by side from the small breakpoint up. */
function Totals({ statement, text }: { statement: AccountStatement; text: (key: TextKey) => string }) {
  const figures: Array<[TextKey, number, string]> = [
    ['opening', statement.openingBalance, 'statement-opening'],
    ['credits', statement.creditsTotal, 'statement-credits'],
    ['debits', statement.debitsTotal, 'statement-debits'],
    ['closing', statement.closingBalance, 'statement-closing'],
  ];
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' }, gap: 2 }}>
      {figures.map(([key, amount, testId]) => (
        <Paper key={key} variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {text(key)}
          </Typography>
          <Typography variant="h6" component="p">
            <Money amount={amount} testId={testId} />
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

function Lines({
  statement,
  text,
  lang,
}: {
  statement: AccountStatement;
  text: (key: TextKey) => string;
  lang: Language;
}) {
  if (statement.lines.length === 0) return <EmptyState message={text('empty')} />;
  return (
    <>
      {/* From the small breakpoint up a table; on a phone each line is a card, so nothing scrolls sideways. */}
      <TableContainer component={Paper} variant="outlined" sx={{ display: { xs: 'none', sm: 'block' } }}>
        <Table size="small" aria-label={text('table')} data-testid="statement-lines">
          <TableHead>
            <TableRow>
              <TableCell>{text('date')}</TableCell>
              <TableCell>{text('description')}</TableCell>
              <TableCell align="right">{text('amount')}</TableCell>
              <TableCell align="right">{text('balanceAfter')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {statement.lines.map((line, index) => (
              <TableRow key={`${line.occurredAt}-${index}`} data-testid="statement-line">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(line.occurredAt, lang)}</TableCell>
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
      <Stack
        spacing={1}
        component="ul"
        aria-label={text('table')}
        sx={{ display: { xs: 'flex', sm: 'none' }, p: 0, m: 0 }}
      >
        {statement.lines.map((line, index) => (
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
                {formatDateTime(line.occurredAt, lang)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {text('balanceAfter')} <Money amount={line.balanceAfter} />
              </Typography>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

/** "My balance on ⟨date⟩": the ledger's balance at the end of the chosen day (ADR 0096). */
function BalanceOnDate({ userUuid, text }: { userUuid: string; text: (key: TextKey) => string }) {
  const { lang } = useT();
  const [day, setDay] = useState<IsoDay>(() => todayOf(new Date()));
  // The last instant of the day, so that every posting of that day counts.
  const at = day ? new Date(startOfDay(day, 1).getTime() - 1).toISOString() : null;
  const balance = useQuery({
    queryKey: ['statement', 'balance', userUuid, at],
    queryFn: () => statementApi.balanceAt(userUuid, at!),
    enabled: at !== null,
    meta: { silentError: true },
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="balance-on-title">
      <Typography id="balance-on-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {text('balanceOnTitle')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <DateField label={text('balanceOnDay')} value={day} onChange={setDay} testId="balance-on-day" size="small" />
        <Typography data-testid="balance-on-answer" aria-live="polite">
          {balance.isError
            ? errorMessageFor(balance.error, lang)
            : balance.data && day
              ? fillAnswer(
                  text('balanceOnAnswer'),
                  formatDate(startOfDay(day).toISOString(), lang),
                  balance.data.balance,
                  lang,
                )
              : null}
        </Typography>
      </Stack>
    </Paper>
  );
}

function fillAnswer(template: string, day: string, amount: number, lang: Language) {
  const [before, afterDay] = template.split('{day}');
  const [between, after] = afterDay.split('{amount}');
  return (
    <>
      {before}
      <bdi>{day}</bdi>
      {between}
      <Box component="bdi" dir="ltr" sx={{ fontWeight: 600 }}>
        {formatDollars(amount, lang)}
      </Box>
      {after}
    </>
  );
}

/**
 * `/payments/statement`: the client's own statement for a period they choose (docs/product.md, Ledger, Statements):
 * the opening balance, every posting in words with the balance after it, the closing balance, CSV and PDF downloads, and
 * the balance on any day. Days are the client's own: the browser's time zone.
 */
export function StatementPage() {
  const { lang } = useT();
  const text = (key: TextKey) => STATEMENT_TEXT[key][lang];
  const { data: me } = useMe();
  const [from, setFrom] = useState<IsoDay>(() => monthStartOf(new Date()));
  const [to, setTo] = useState<IsoDay>(() => todayOf(new Date()));
  const problem = periodProblem(from, to);
  const period = problem === null ? periodOf(from, to) : null;
  const userUuid = me?.userUuid ?? null;
  const statement = useQuery({
    queryKey: ['statement', userUuid, period, lang],
    queryFn: ({ signal }) => statementApi.statement(userUuid!, period!, lang, signal),
    enabled: userUuid !== null && period !== null,
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
  const download = useMutation({
    mutationFn: () => statementApi.csv(userUuid!, period!, lang, browserTimeZone()),
    onSuccess: (csv) => saveCsv(csv, `statement-${from}_${to}.csv`),
  });
  const downloadPdf = useMutation({
    mutationFn: () => statementApi.pdf(userUuid!, period!, lang, browserTimeZone()),
    onSuccess: (pdf) => saveFile(pdf, `statement-${from}_${to}.pdf`),
  });

  return (
    <Page title={text('title')}>
      <Typography color="text.secondary">{text('intro')}</Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ alignItems: { sm: 'flex-start' }, flexWrap: 'wrap' }}
      >
        <DateField label={text('from')} value={from} onChange={setFrom} max={to} testId="statement-from" size="small" />
        <DateField label={text('to')} value={to} onChange={setTo} min={from} testId="statement-to" size="small" />
        <Button
          variant="outlined"
          startIcon={<DownloadOutlinedIcon />}
          onClick={() => download.mutate()}
          disabled={period === null || userUuid === null || download.isPending}
          data-testid="statement-csv"
        >
          {download.isPending ? text('downloading') : text('downloadCsv')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadOutlinedIcon />}
          onClick={() => downloadPdf.mutate()}
          disabled={period === null || userUuid === null || downloadPdf.isPending}
          data-testid="statement-pdf"
        >
          {downloadPdf.isPending ? text('downloading') : text('downloadPdf')}
        </Button>
      </Stack>
      {problem && problem !== 'error.validation.required' ? (
        <Alert severity="warning" data-testid="statement-period-problem">
          {formatClientErrorMessage(problem, lang, { maxDays: LIMITS.statementPeriodMaxDays })}
        </Alert>
      ) : null}
      {download.isError ? (
        <Alert severity="error" data-testid="statement-csv-error">
          {errorMessageFor(download.error, lang)}
        </Alert>
      ) : null}
      {downloadPdf.isError ? (
        <Alert severity="error" data-testid="statement-pdf-error">
          {errorMessageFor(downloadPdf.error, lang)}
        </Alert>
      ) : null}
      {statement.isError ? (
        <Alert severity="error" data-testid="statement-error">
          {errorMessageFor(statement.error, lang)}
        </Alert>
      ) : statement.data ? (
        <Stack spacing={2} data-testid="statement">
          <Totals statement={statement.data} text={text} />
          <Lines statement={statement.data} text={text} lang={lang} />
        </Stack>
      ) : period ? (
        <Skeleton variant="rounded" height={240} />
      ) : null}
      {userUuid ? <BalanceOnDate userUuid={userUuid} text={text} /> : null}
    </Page>
  );
}
