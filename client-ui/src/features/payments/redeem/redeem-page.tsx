import { getRouteApi, useNavigate } from '@tanstack/react-router';
import Typography from '@mui/material/Typography';
import { useT } from '../../../lib/i18n/i18n';
import { Page } from '../../../lib/ui/page';
import { RedeemVoucherBox } from './redeem-voucher-box';

const routeApi = getRouteApi('/app/redeem/$code');

/**
 * `/redeem/{code}`: a link printed on a voucher or sent by a shop. The code is filled in and waits for the client's
 * click, so that opening a link never spends a code by itself; a success leads to the payments list, or for a day
 * voucher to the subscription it extended or started.
 */
export function RedeemPage() {
  const { t } = useT();
  const { code } = routeApi.useParams();
  const navigate = useNavigate();
  return (
    <Page title={t('redeem.title')}>
      <Typography color="text.secondary">{t('redeem.intro')}</Typography>
      <RedeemVoucherBox
        initialCode={code}
        titled={false}
        onRedeemed={(redemption) =>
          void (redemption.kind === 'DAYS' && redemption.subscriptionId
            ? navigate({ to: '/subscriptions/$subscriptionId', params: { subscriptionId: redemption.subscriptionId } })
            : navigate({ to: '/payments' }))
        }
      />
    </Page>
  );
}
