import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useMe } from '../../lib/api/use-me';
import { useRewardTiers } from '../../lib/api/use-support-contacts';
import { formatNumber, formatPercent } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { inputTestId } from '../../lib/ui/test-ids';
import { AmbassadorBonusTiers, ReferralTiers } from './referral-tiers';

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

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The client's referral link and counters from `/users/me`, the discount tiers that the counters lead to, and for an
 * ambassador the deposit bonus tiers.
 */
export function ReferralsPage() {
  const { t, lang } = useT();
  const rewardTiers = useRewardTiers();
  const { data: me } = useMe();
  const [copy, setCopy] = useState<CopyState>('idle');
  const linkInput = useRef<HTMLInputElement>(null);

  const copyLink = (link: string) => {
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) {
      setCopy('failed');
      linkInput.current?.select();
      return;
    }
    clipboard.writeText(link).then(
      () => setCopy('copied'),
      () => {
        // Without permission to write, the link is selected so that the user's own copy command takes it.
        setCopy('failed');
        linkInput.current?.select();
      },
    );
  };

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
              inputRef={linkInput}
              helperText={copy === 'failed' ? t('referrals.copyFailed') : undefined}
              slotProps={{ htmlInput: { ...inputTestId('referral-link'), readOnly: true, dir: 'ltr' } }}
            />
            <Button
              variant="contained"
              startIcon={copy === 'copied' ? <CheckIcon /> : <ContentCopyIcon />}
              sx={{ flexShrink: 0 }}
              onClick={() => copyLink(me.referrals.link)}
              data-testid="referral-copy"
            >
              {copy === 'copied' ? t('referrals.copied') : t('referrals.copy')}
            </Button>
            {/* Screen readers hear the outcome; the button's new label alone is not announced. */}
            <Box role="status" sx={visuallyHidden} data-testid="referral-copy-status">
              {copy === 'copied' ? t('referrals.copied') : ''}
            </Box>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('referrals.profileId')}: <bdi data-testid="referrals-profile-id">{me.referrals.profileId}</bdi>
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.total')}
                value={formatNumber(me.referrals.totalReferrals, lang)}
                testId="referrals-total"
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.active')}
                value={formatNumber(me.referrals.activeReferrals, lang)}
                testId="referrals-active"
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Stat
                label={t('referrals.discount')}
                value={formatPercent(me.referrals.discountPercent, lang)}
                testId="referrals-discount"
              />
            </Grid>
          </Grid>
          <ReferralTiers activeReferrals={me.referrals.activeReferrals} tiers={rewardTiers.referralDiscount} />
          {me.role === 'AMBASSADOR' && <AmbassadorBonusTiers tiers={rewardTiers.ambassadorBonus} />}
        </>
      )}
    </Page>
  );
}
