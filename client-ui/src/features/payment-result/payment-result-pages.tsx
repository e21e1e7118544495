import Alert from '@mui/material/Alert';
import { useT } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { RouterButton } from '../../lib/ui/router-link';

/** Where the card and crypto providers send the client back after a successful payment. */
export function PaymentSuccessPage() {
  const { t } = useT();
  return (
    <Page title={t('paymentSuccess.title')}>
      <Alert severity="success" data-testid="payment-success">
        {t('paymentSuccess.body')}
      </Alert>
      <div>
        <RouterButton to="/payments" variant="contained">
          {t('paymentFailed.toPayments')}
        </RouterButton>
      </div>
    </Page>
  );
}

/** Where the providers send the client back after a failed or abandoned payment. */
export function PaymentFailedPage() {
  const { t, errorMessage } = useT();
  return (
    <Page title={t('paymentFailed.title')}>
      <Alert severity="error" data-testid="payment-failed">
        {errorMessage('error.payment.failed')}
      </Alert>
      <div>
        <RouterButton to="/payments" variant="contained">
          {t('paymentFailed.toPayments')}
        </RouterButton>
      </div>
    </Page>
  );
}
