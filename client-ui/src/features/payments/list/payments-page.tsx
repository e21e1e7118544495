import { getRouteApi } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddCardOutlinedIcon from '@mui/icons-material/AddCardOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import { mirrorInRtl } from '../../../lib/ui/mirror-in-rtl';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { useMe } from '../../../lib/api/use-me';
import { formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { EmptyState, Page } from '../../../lib/ui/page';
import { RouterButton } from '../../../lib/ui/router-link';
import { receiptText } from '../../receipts/receipt-text';
import { NegativeBalanceNotice } from '../negative-balance-notice';
import { RedeemVoucherBox } from '../redeem/redeem-voucher-box';
import { STATEMENT_TEXT } from '../statement/statement-text';
import { nothingToTransfer } from '../transfer/transfer-rules';
import { paymentsSearchQueryOptions } from '../payments-query';
import { PaymentsFilters, type FilterPatch } from './payments-filters';
import { effectiveSort, hasFilters, toPaymentSearchRequest } from './payments-search';
import { PaymentsTable } from './payments-table';

const routeApi = getRouteApi('/app/payments');

/**
 * The client's own payment history. Filters, sorts and paging live in the URL, so a list can be shared,
 * bookmarked and restored with the back button; every change of them asks the server again.
 */
export function PaymentsPage() {
  const { t, tIsolated, lang } = useT();
  const { data: me } = useMe();
  // A balance at or below zero has nothing to send (ADR 0076): Transfer is disabled with the reason, and Deposit,
  // the way forward, becomes the primary action.
  const nothingToSend = me !== undefined && nothingToTransfer(me.balance);
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const request = toPaymentSearchRequest(search);
  const payments = useQuery({
    ...paymentsSearchQueryOptions(request),
    // The previous page stays on screen while the next one loads, so paging does not flash a skeleton.
    placeholderData: keepPreviousData,
  });

  // Any change of the filters starts again from the first page, which is the default and so leaves the URL.
  const applyFilters = (patch: FilterPatch) =>
    void navigate({ search: (previous) => ({ ...previous, ...patch, page: undefined }) });
  const filtered = hasFilters(search);

  return (
    <Page title={t('payments.title')}>
      <NegativeBalanceNotice />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {nothingToSend ? (
          <Button
            variant="outlined"
            disabled
            startIcon={<SendOutlinedIcon sx={mirrorInRtl} />}
            aria-describedby="transfer-unavailable-reason"
            data-testid="transfer-open"
          >
            {t('payments.transfer')}
          </Button>
        ) : (
          <RouterButton
            to="/payments/transfer"
            variant="contained"
            startIcon={<SendOutlinedIcon sx={mirrorInRtl} />}
            data-testid="transfer-open"
          >
            {t('payments.transfer')}
          </RouterButton>
        )}
        <RouterButton
          to="/payments/deposit"
          variant={nothingToSend ? 'contained' : 'outlined'}
          startIcon={<AddCardOutlinedIcon />}
          data-testid="deposit-open"
        >
          {t('payments.deposit')}
        </RouterButton>
        <RouterButton
          to="/payments/statement"
          variant="outlined"
          startIcon={<ReceiptLongOutlinedIcon />}
          data-testid="statement-open"
        >
          {STATEMENT_TEXT.open[lang]}
        </RouterButton>
        <RouterButton to="/receipts" variant="text" data-testid="receipts-open">
          {receiptText('title', lang)}
        </RouterButton>
      </Stack>
      {nothingToSend && me && (
        <Typography
          id="transfer-unavailable-reason"
          variant="body2"
          color="text.secondary"
          data-testid="transfer-unavailable-reason"
        >
          {tIsolated('transfer.nothingToSend', { balance: formatDollars(me.balance, lang) })}
        </Typography>
      )}
      <RedeemVoucherBox />
      <PaymentsFilters
        key={`${search.keyWord ?? ''}\u0000${search.id ?? ''}`}
        search={search}
        onChange={applyFilters}
        onReset={() => void navigate({ search: (previous) => ({ size: previous.size, sorts: previous.sorts }) })}
        canReset={filtered}
      />
      {payments.isError && !(isApiError(payments.error) && payments.error.handled) ? (
        <Alert severity="error" data-testid="payments-error">
          {errorMessageFor(payments.error, lang)}
        </Alert>
      ) : !payments.data ? (
        <Skeleton variant="rounded" height={320} aria-label={t('common.loading')} />
      ) : payments.data.totalElements === 0 ? (
        <EmptyState message={filtered ? t('payments.emptyFiltered') : t('payments.empty')} />
      ) : (
        <PaymentsTable
          result={payments.data}
          sort={effectiveSort(search)}
          onSort={(sort) => void navigate({ search: (previous) => ({ ...previous, sorts: [sort], page: undefined }) })}
          onPage={(page) =>
            void navigate({ search: (previous) => ({ ...previous, page: page > 0 ? page : undefined }) })
          }
          onPageSize={(size) => void navigate({ search: (previous) => ({ ...previous, size, page: undefined }) })}
        />
      )}
    </Page>
  );
}
