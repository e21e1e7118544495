import { formatDollarsForIsolate, type Receipt } from '@kupa/proto';
import { receiptKindText, receiptTitle } from '@kupa/proto/receipt-lines';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { mirrorInRtl } from '../../lib/ui/mirror-in-rtl';
import { EmptyState, Page } from '../../lib/ui/page';
import { RouterButton, RouterLink } from '../../lib/ui/router-link';
import { receiptText } from './receipt-text';
import { useReceipts } from './receipts-query';

/** The client's receipts, newest first (docs/product.md, Receipts): each opens its page with the PDF download. */
export function ReceiptsPage() {
  const { t, lang } = useT();
  const receipts = useReceipts();
  return (
    <Page title={receiptText('title', lang)}>
      <div>
        <RouterButton to="/payments" variant="text" startIcon={<ArrowBackIcon sx={mirrorInRtl} />}>
          {t('payment.back')}
        </RouterButton>
      </div>
      {!receipts.data ? (
        receipts.isError ? (
          isApiError(receipts.error) && receipts.error.handled ? null : (
            <Alert severity="error">{errorMessageFor(receipts.error, lang)}</Alert>
          )
        ) : (
          <Skeleton variant="rounded" height={240} aria-label={t('common.loading')} />
        )
      ) : receipts.data.items.length === 0 ? (
        <EmptyState message={receiptText('empty', lang)} />
      ) : (
        <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="receipts-list">
          {receipts.data.items.map((receipt) => (
            <ReceiptItem key={receipt.number} receipt={receipt} />
          ))}
        </Stack>
      )}
    </Page>
  );
}

function ReceiptItem({ receipt }: { receipt: Receipt }) {
  const { lang } = useT();
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2 }} data-testid="receipt-item" data-number={receipt.number}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: 'baseline', flexWrap: 'wrap' }}
      >
        <Stack spacing={0.5}>
          <RouterLink to="/receipts/$number" params={{ number: String(receipt.number) }} data-testid="receipt-link">
            {receiptTitle(receipt.number, lang)}
          </RouterLink>
          <Typography variant="body2" color="text.secondary">
            {receiptKindText(receipt.kind, lang)}
            {receipt.planName ? (
              <>
                {' · '}
                <bdi>{receipt.planName}</bdi>
              </>
            ) : null}
            {' · '}
            {formatDateTime(receipt.issuedAt, lang)}
          </Typography>
        </Stack>
        <Typography sx={{ fontWeight: 500 }}>
          <bdi dir="ltr">{formatDollarsForIsolate(receipt.amount, lang)}</bdi>
        </Typography>
      </Stack>
    </Paper>
  );
}
