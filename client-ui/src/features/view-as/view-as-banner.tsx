import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { formatTime } from '../../lib/format';
import { usePartT } from '../../lib/i18n/dictionary-part';
import { VIEW_AS_MESSAGES } from '../../lib/view-as/view-as-messages';
import { endViewAs } from '../../lib/view-as/end-view-as';
import type { ViewAsSession } from '../../lib/view-as/view-as-store';

/** Room the fixed banner takes at the bottom of the page, kept free under the content so it hides nothing. */
export const VIEW_AS_BANNER_SPACE = { xs: '112px', sm: '72px' };

interface ViewAsBannerProps {
  session: ViewAsSession;
  ended: boolean;
}

/**
 * Fixed to the bottom of every screen of a staff member's view (docs/adr/0092-refund-to-balance-and-view-as.md): whose
 * portal this is, that it is read only, when it ends, and the way out. The end forgets the token and closes the tab.
 */
export function ViewAsBanner({ session, ended }: ViewAsBannerProps) {
  const { t, tIsolated, lang } = usePartT(VIEW_AS_MESSAGES);
  const queryClient = useQueryClient();
  const client = session.clientName.trim() || session.clientEmail;
  const time = formatTime(session.expiresAt, lang);
  return (
    <Paper
      square
      elevation={8}
      role="region"
      aria-label={t('banner.label')}
      data-testid="view-as-banner"
      data-ended={ended}
      sx={{
        position: 'fixed',
        insetInline: 0,
        bottom: 0,
        zIndex: (theme) => theme.zIndex.drawer + 2,
        bgcolor: ended ? 'error.main' : 'warning.main',
        color: ended ? 'error.contrastText' : 'warning.contrastText',
        px: { xs: 2, sm: 3 },
        py: 1.5,
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1, sm: 2 }}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexGrow: 1, minWidth: 0 }}>
          <VisibilityIcon aria-hidden />
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="view-as-banner-text">
            {tIsolated(ended ? 'banner.ended' : 'banner.active', { client, time })}
          </Typography>
        </Stack>
        <Box sx={{ flexShrink: 0 }}>
          <Button
            variant="contained"
            color="inherit"
            size="small"
            data-testid="view-as-end"
            onClick={() => {
              queryClient.clear();
              endViewAs();
            }}
            sx={{ color: 'text.primary', bgcolor: 'background.paper', width: { xs: '100%', sm: 'auto' } }}
          >
            {t(ended ? 'closeTab' : 'end')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/** What a view shows instead of the screen once it has ended: no sign-in page, no data that can no longer load. */
export function ViewAsEnded() {
  const { t } = usePartT(VIEW_AS_MESSAGES);
  return (
    <Stack component="section" spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8 }}>
      <Typography variant="h5" component="h1" data-testid="view-as-ended">
        {t('ended.title')}
      </Typography>
      <Typography color="text.secondary">{t('ended.body')}</Typography>
    </Stack>
  );
}
