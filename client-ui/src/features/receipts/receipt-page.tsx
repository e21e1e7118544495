import { useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { receiptDisclaimer, receiptLines, receiptTitle } from '@kupa/proto/receipt-lines';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { useT } from '../../lib/i18n/i18n';
import { DescriptionList } from '../../lib/ui/description-list';
import { mirrorInRtl } from '../../lib/ui/mirror-in-rtl';
import { Page } from '../../lib/ui/page';
import { RouterButton, RouterLink } from '../../lib/ui/router-link';
import { NotFoundView } from '../errors/not-found-screen';
import { parsePaymentId } from '../payments/detail/payment-id';
import { downloadReceiptPdf } from './receipt-download';
import { receiptText } from './receipt-text';
import { useReceipt } from './receipts-query';

const routeApi = getRouteApi('/app/receipts/$number');

/** One of the client's receipts: the lines the PDF prints, in the page language, and the PDF itself. */
export function ReceiptPage() {
  const { number: raw } = routeApi.useParams();
  // Receipt numbers are written like payment ids: positive decimal integers.
  const number = parsePaymentId(raw);
  return number === null ? <ReceiptNotFound /> : <ReceiptView number={number} />;
}

function ReceiptNotFound() {
  const { errorMessage } = useT();
  return <NotFoundView embedded message={errorMessage('error.receipt.not.found')} />;
}

function ReceiptView({ number }: { number: number }) {
  const { t, lang } = useT();
  const receipt = useReceipt(number);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  if (receipt.isError && isApiError(receipt.error) && receipt.error.status === 404) return <ReceiptNotFound />;

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadReceiptPdf(number, lang);
    } catch (error) {
      setDownloadError(errorMessageFor(error, lang));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Page title={receiptTitle(number, lang)}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
        <RouterButton to="/receipts" variant="text" startIcon={<ArrowBackIcon sx={mirrorInRtl} />}>
          {receiptText('back', lang)}
        </RouterButton>
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          onClick={() => void download()}
          disabled={downloading || !receipt.data}
          data-testid="receipt-download"
        >
          {receiptText('download', lang)}
        </Button>
      </Stack>
      {downloadError ? (
        <Alert severity="error" data-testid="receipt-download-error">
          {downloadError}
        </Alert>
      ) : null}
      {receipt.isError ? (
        isApiError(receipt.error) && receipt.error.handled ? null : (
          <Alert severity="error">{errorMessageFor(receipt.error, lang)}</Alert>
        )
      ) : !receipt.data ? (
        <Skeleton variant="rounded" height={360} aria-label={t('common.loading')} />
      ) : (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="receipt" data-number={receipt.data.number}>
          <Stack spacing={2}>
            <DescriptionList
              rows={receiptLines(receipt.data, lang).map((line, index) => [
                line.label,
                line.leftToRight ? <bdi dir="ltr">{line.value}</bdi> : <bdi>{line.value}</bdi>,
                `receipt-line-${index}`,
              ])}
            />
            <Typography variant="body2" color="text.secondary">
              {receiptDisclaimer(lang)}{' '}
              <RouterLink
                to="/payments/$paymentId"
                params={{ paymentId: String(receipt.data.paymentId) }}
                data-testid="receipt-payment-link"
              >
                {receiptText('payment', lang, { id: receipt.data.paymentId })}
              </RouterLink>
            </Typography>
          </Stack>
        </Paper>
      )}
    </Page>
  );
}
