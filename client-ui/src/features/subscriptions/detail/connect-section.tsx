import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AndroidIcon from '@mui/icons-material/Android';
import AppleIcon from '@mui/icons-material/Apple';
import LaunchIcon from '@mui/icons-material/Launch';
import type { SubscriptionConnect } from '@kupa/proto';
import { useT } from '../../../lib/i18n/i18n';
import { QrCode } from '../../../lib/ui/qr-code';

const QR_SIZE_PX = 160;

/**
 * How to reach the streaming service: its site (with a QR code to open it on a phone or TV browser) and its apps,
 * from the server's configuration. Nothing configured, nothing shown.
 */
export function ConnectSection({ connect }: { connect: SubscriptionConnect | null | undefined }) {
  const { t } = useT();
  if (!connect || (!connect.siteUrl && !connect.iosAppUrl && !connect.androidAppUrl)) return null;
  const { siteUrl, iosAppUrl, androidAppUrl } = connect;
  // The store apps, each shown only when configured.
  const appLinks = [
    { store: 'ios' as const, url: iosAppUrl, icon: <AppleIcon /> },
    { store: 'android' as const, url: androidAppUrl, icon: <AndroidIcon /> },
  ].flatMap((link) => (link.url ? [{ ...link, url: link.url }] : []));
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="subscription-connect-title"
      sx={{ p: 3 }}
      data-testid="subscription-connect"
    >
      <Typography id="subscription-connect-title" variant="h6" component="h2" gutterBottom>
        {t('subscription.connect.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
        {siteUrl ? (
          <Box sx={{ alignSelf: 'center', lineHeight: 0 }}>
            <QrCode
              value={siteUrl}
              label={t('subscription.connect.qr')}
              sizePx={QR_SIZE_PX}
              testId="subscription-connect-qr"
            />
          </Box>
        ) : null}
        <Stack spacing={1.5} sx={{ minWidth: 0, flex: 1 }}>
          <Typography color="text.secondary">
            {siteUrl ? t('subscription.connect.intro') : t('subscription.connect.introApps')}
          </Typography>
          {siteUrl ? (
            <Box>
              <Button
                variant="contained"
                href={siteUrl}
                target="_blank"
                rel="noopener noreferrer"
                endIcon={<LaunchIcon />}
                data-testid="subscription-connect-site"
              >
                {t('subscription.connect.site')}
              </Button>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                <bdi dir="ltr">{siteUrl}</bdi>
              </Typography>
            </Box>
          ) : null}
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {appLinks.map(({ store, url, icon }) => (
              <Button
                key={store}
                variant="outlined"
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                startIcon={icon}
                data-testid={`subscription-connect-${store}`}
              >
                {t(`subscription.connect.${store}`)}
              </Button>
            ))}
          </Stack>
        </Stack>
      </Stack>
    </Paper>
  );
}
