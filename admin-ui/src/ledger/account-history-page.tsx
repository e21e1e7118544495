import {
  type AccountHistory,
  type AccountHolder,
  eventTypeLabel,
  keptOnOneLine,
  ledgerAccountLabel,
  LIMITS,
  SYSTEM_ACCOUNTS,
  USER_ACCOUNT_PREFIX,
  type UserRole,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import {
  Link,
  Title,
  useCreatePath,
  useDataProvider,
  useLocation,
  useNavigate,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { useAdminPath } from '../shared/admin-path';
import { EmptyState } from '../shared/empty-state';
import { Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { useLang } from '../shared/use-lang';
import { accountHistoryPath } from './account-paths';
import { fromLocalInputValue, toLocalInputValue } from './local-date-time';
import { LIST_PAGE_SIZES } from '../shared/list-pagination';
import { CardLine } from '../shared/card-line';
import { useIsPhone } from '../shared/responsive';

type LoadState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; history: AccountHistory };

function isUserAccount(account: string): boolean {
  return account.startsWith(USER_ACCOUNT_PREFIX);
}

/**
 * An account by name (docs/product.md, Ledger): a system account by what it is, a user account by its holder's name
 * and e-mail. The raw account id stays in the tooltip and in `data-account` for auditors.
 */
function AccountName({ account, holder }: { account: string; holder: AccountHolder | null }) {
  const lang = useLang();
  return (
    <span title={account} data-account={account}>
      <bdi>{ledgerAccountLabel(account, holder?.fullName ?? null, lang)}</bdi>
      {holder ? (
        <>
          {' ('}
          <Ltr>{holder.email}</Ltr>
          {')'}
        </>
      ) : null}
    </span>
  );
}

function formatInstant(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return keptOnOneLine(
    date.toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' }),
  );
}

/** Reads one page of an account's history whenever the account, the instant or the page changes. */
function useAccountHistory(account: string, asOf: string, page: number, size: number): LoadState {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [state, setState] = useState<LoadState>({ status: 'idle' });
  useEffect(() => {
    if (!account) {
      setState({ status: 'idle' });
      return undefined;
    }
    // An older answer arriving after a newer question must not overwrite it, so each question cancels the last one.
    const controller = new AbortController();
    setState({ status: 'loading' });
    dataProvider.getAccountHistory({ account, asOf, page, size }, controller.signal).then(
      (history) => {
        if (!controller.signal.aborted) setState({ status: 'ready', history });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
        }
      },
    );
    return () => controller.abort();
  }, [dataProvider, account, asOf, page, size]);
  return state;
}

/**
 * One ledger account as of any instant (docs/product.md, Ledger): the balance at that instant and the postings up to
 * it, each with its signed amount, the balance after it, the other side of the posting and the payment it belongs
 * to. Everything the page shows lives in the address, so an auditor can share the exact view.
 */
export function AccountHistoryPage() {
  const translate = useTranslate();
  const lang = useLang();
  const adminPath = useAdminPath();
  const createPath = useCreatePath();
  const { permissions } = usePermissions<UserRole | null>();
  // react-admin's router-agnostic hooks, rather than react-router's own, so the page follows whichever router
  // react-admin runs in.
  const location = useLocation();
  const navigate = useNavigate();
  const searchParams = useMemo(() => new URLSearchParams(location.search), [location.search]);
  // "Now" is fixed when the page opens, so paging through the entries keeps looking at the same instant.
  const [openedAt] = useState(() => new Date().toISOString());

  const account = searchParams.get('account') ?? '';
  const asOf = searchParams.get('asOf') ?? openedAt;
  const page = Math.max(Number(searchParams.get('page')) || 0, 0);
  const sizeParam = Number(searchParams.get('size'));
  const size = LIST_PAGE_SIZES.includes(sizeParam) ? sizeParam : LIMITS.pageSizeDefault;
  const state = useAccountHistory(account, asOf, page, size);
  // What the user is typing into the date-time input, until it is a complete instant; otherwise the input shows
  // the address's instant, so going back in history moves the input too.
  const [asOfDraft, setAsOfDraft] = useState<string | null>(null);

  const accounts = useMemo(
    () =>
      account && !(SYSTEM_ACCOUNTS as readonly string[]).includes(account)
        ? [account, ...SYSTEM_ACCOUNTS]
        : [...SYSTEM_ACCOUNTS],
    [account],
  );

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    navigate({ pathname: location.pathname, search: `?${next.toString()}` }, { replace: true });
  };

  const changeAsOf = (value: string) => {
    const instant = fromLocalInputValue(value);
    // A partly typed date stays in the input until it is complete; only a whole instant asks the server again.
    setAsOfDraft(instant ? null : value);
    if (instant) update({ asOf: instant, page: null });
  };

  const resetToNow = () => {
    setAsOfDraft(null);
    update({ asOf: new Date().toISOString(), page: null });
  };

  const isAdmin = permissions === 'ADMIN';
  const phone = useIsPhone();
  const userUuid = isUserAccount(account) ? account.slice(USER_ACCOUNT_PREFIX.length) : null;
  const holder = state.status === 'ready' && state.history.account === account ? state.history.holder : null;
  const optionLabel = (option: string) =>
    `${ledgerAccountLabel(option, option === account ? (holder?.fullName ?? null) : null, lang)} (${option})`;

  return (
    <Box sx={{ mt: 2 }} data-testid="account-history">
      <Title title={translate('kupa.ledger.title')} />
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <TextField
              select
              size="small"
              label={translate('kupa.ledger.account')}
              value={account}
              onChange={(event) => update({ account: event.target.value, page: null })}
              // The options name user accounts by their uuid; on a phone the field keeps to the screen's width.
              sx={{ minWidth: { md: 280 }, maxWidth: '100%', '& select': { textOverflow: 'ellipsis' } }}
              slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'account-history-account' } }}
            >
              {account ? null : <option value="">{translate('kupa.ledger.choose_account')}</option>}
              {accounts.map((option) => (
                <option key={option} value={option}>
                  {optionLabel(option)}
                </option>
              ))}
            </TextField>
            <TextField
              type="datetime-local"
              size="small"
              label={translate('kupa.ledger.as_of')}
              value={asOfDraft ?? toLocalInputValue(asOf)}
              onChange={(event) => changeAsOf(event.target.value)}
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { step: 1, dir: 'ltr', 'data-testid': 'account-history-asof' },
              }}
            />
            <Button onClick={resetToNow} data-testid="account-history-now">
              {translate('kupa.ledger.now')}
            </Button>
            {userUuid ? (
              <Link
                to={createPath({ resource: 'clients', id: userUuid, type: 'show' })}
                data-testid="account-history-client"
                sx={{ whiteSpace: 'nowrap' }}
              >
                {translate('kupa.ledger.open_client')}
              </Link>
            ) : null}
          </Stack>
        </CardContent>
      </Card>

      {!account ? <EmptyState testId="account-history-empty" title={translate('kupa.ledger.choose_account')} /> : null}
      {state.status === 'loading' ? <CircularProgress size={24} sx={{ mt: 2 }} /> : null}
      {state.status === 'failed' ? (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="account-history-error">
          {state.message}
        </Alert>
      ) : null}
      {state.status === 'ready' ? (
        <Card sx={{ mt: 2 }}>
          <CardContent>
            {state.history.holder ? (
              <Typography variant="subtitle1" component="h2" data-testid="account-history-holder">
                <AccountName account={state.history.account} holder={state.history.holder} />
              </Typography>
            ) : null}
            <Typography variant="overline" component="p">
              {translate('kupa.ledger.balance_as_of', { instant: formatInstant(state.history.asOf, lang) })}
            </Typography>
            <Typography variant="h4" component="p" sx={{ mb: 2 }}>
              <Money amount={state.history.balance} testId="account-history-balance" />
            </Typography>
            {state.history.entries.content.length === 0 ? (
              <EmptyState testId="account-history-no-entries" title={translate('kupa.ledger.no_entries')} />
            ) : phone ? (
              <List disablePadding data-testid="account-history-cards">
                {state.history.entries.content.map((entry, index) => (
                  <ListItem
                    key={`${entry.transactionId}-${index}`}
                    divider
                    disableGutters
                    data-testid="account-history-row"
                    data-id={entry.transactionId}
                  >
                    <ListItemText
                      primary={
                        <CardLine end={<Money amount={entry.amount} signed />}>
                          <Link
                            to={adminPath(accountHistoryPath(entry.counterAccount, asOf))}
                            data-testid="account-history-counter-account"
                          >
                            <AccountName account={entry.counterAccount} holder={entry.counterAccountHolder} />
                          </Link>
                        </CardLine>
                      }
                      secondary={
                        <>
                          <span data-testid="account-history-entry-type" data-event-type={entry.eventType}>
                            {eventTypeLabel(entry.eventType, lang)}
                          </span>
                          <br />
                          {formatInstant(entry.occurredAt, lang)}
                          {entry.paymentId === null ? null : (
                            <>
                              {' · '}
                              <Ltr>#{entry.paymentId}</Ltr>
                            </>
                          )}
                          <br />
                          {translate('kupa.ledger.columns.balance_after')}: <Money amount={entry.balanceAfter} />
                        </>
                      }
                    />
                  </ListItem>
                ))}
              </List>
            ) : (
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('kupa.ledger.columns.occurred_at')}</TableCell>
                      <TableCell>{translate('kupa.ledger.columns.amount')}</TableCell>
                      <TableCell>{translate('kupa.ledger.columns.balance_after')}</TableCell>
                      <TableCell>{translate('kupa.ledger.columns.counter_account')}</TableCell>
                      <TableCell>{translate('kupa.ledger.columns.payment')}</TableCell>
                      <TableCell>{translate('kupa.ledger.columns.event')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {state.history.entries.content.map((entry, index) => (
                      <TableRow
                        key={`${entry.transactionId}-${index}`}
                        data-testid="account-history-row"
                        data-id={entry.transactionId}
                      >
                        <TableCell>{formatInstant(entry.occurredAt, lang)}</TableCell>
                        <TableCell>
                          <Money amount={entry.amount} signed />
                        </TableCell>
                        <TableCell>
                          <Money amount={entry.balanceAfter} />
                        </TableCell>
                        <TableCell>
                          <Link
                            to={adminPath(accountHistoryPath(entry.counterAccount, asOf))}
                            data-testid="account-history-counter-account"
                          >
                            <AccountName account={entry.counterAccount} holder={entry.counterAccountHolder} />
                          </Link>
                        </TableCell>
                        <TableCell>
                          {entry.paymentId === null ? (
                            '—'
                          ) : isAdmin ? (
                            <Link
                              to={createPath({ resource: 'payments', id: entry.paymentId, type: 'show' })}
                              data-testid="account-history-payment"
                            >
                              <Ltr>#{entry.paymentId}</Ltr>
                            </Link>
                          ) : (
                            <Ltr>#{entry.paymentId}</Ltr>
                          )}
                        </TableCell>
                        <TableCell data-testid="account-history-entry-type" data-event-type={entry.eventType}>
                          {eventTypeLabel(entry.eventType, lang)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            )}
            <TablePagination
              component="div"
              count={state.history.entries.totalElements}
              page={Math.min(page, Math.max(state.history.entries.totalPages - 1, 0))}
              rowsPerPage={size}
              rowsPerPageOptions={LIST_PAGE_SIZES}
              onPageChange={(_, next) => update({ page: String(next) })}
              onRowsPerPageChange={(event) => update({ size: event.target.value, page: null })}
              labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
              labelDisplayedRows={({ from, to, count }) =>
                translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
              }
            />
          </CardContent>
        </Card>
      ) : null}
    </Box>
  );
}
