import { useState } from 'react';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useMe } from '../../lib/api/use-me';
import { useT } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { inputTestId } from '../../lib/ui/test-ids';

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, height: '100%' }}>
      <Typography color="text.secondary" variant="body2">
        {label}
      </Typography>
      <Typography variant="h4" component="p" data-testid={testId}>
        <bdi>{value}</bdi>
      </Typography>
    </Paper>
  );
}

/** The client's referral link and counters from `/users/me`. */
export function ReferralsPage() {
  const { t, locale } = useT();
  const { data: me } = useMe();
  const [copied, setCopied] = useState(false);
  const number = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });

  return (
    <Page title={t('referrals.title')}>
      <Typography color="text.secondary">{t('referrals.intro')}</Typography>
      {!me ? (
        <Skeleton variant="rounded" height={160} />
      ) : (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              label={t('referrals.link')}
              value={me.referrals.link}
              fullWidth
              slotProps={{ htmlInput: { ...inputTestId('referral-link'), readOnly: true, dir: 'ltr' } }}
            />
            <Button
              variant="contained"
              startIcon={<ContentCopyIcon />}
              sx={{ flexShrink: 0 }}
              onClick={() => {
                void navigator.clipboard?.writeText(me.referrals.link).then(() => setCopied(true));
              }}
            >
              {copied ? t('referrals.copied') : t('referrals.copy')}
            </Button>
          </Stack>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.total')}
                value={number.format(me.referrals.totalReferrals)}
                testId="referrals-total"
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.active')}
                value={number.format(me.referrals.activeReferrals)}
                testId="referrals-active"
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.discount')}
                value={percent.format(me.referrals.discountPercent / 100)}
                testId="referrals-discount"
              />
            </Grid>
          </Grid>
        </>
      )}
    </Page>
  );
}
