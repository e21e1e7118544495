import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { AnnouncementPreference } from '@kupa/proto';
import { notificationsApi } from '../../lib/api/endpoints';
import { useT } from '../../lib/i18n/i18n';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

const PREFERENCES_QUERY_KEY = ['notification-preferences'] as const;

/**
 * The client's switch for the house's announcements (docs/adr/0091-broadcasts.md); the hint says that service mails
 * (receipts, reminders) come whatever it says, since those cannot be switched off.
 */
export function AnnouncementsSection() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: PREFERENCES_QUERY_KEY, queryFn: notificationsApi.preferences });
  const save = useMutation({
    mutationFn: notificationsApi.setPreferences,
    // The switch itself shows the saved state; a failure gets the usual error toast.
    onSuccess: (saved: AnnouncementPreference) => queryClient.setQueryData(PREFERENCES_QUERY_KEY, saved),
  });
  if (data === undefined) return null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="announcements-title" sx={{ p: 3 }}>
      <Typography id="announcements-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('profile.announcements')}
      </Typography>
      <FormControlLabel
        control={
          <ReadOnlyAction>
            <Switch
              checked={(save.isPending ? save.variables.announcements : data.announcements) === true}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ announcements: event.target.checked })}
              slotProps={{ input: { 'aria-describedby': 'announcements-hint' } }}
              data-testid="profile-announcements"
            />
          </ReadOnlyAction>
        }
        label={t('profile.announcementsSwitch')}
      />
      <Typography id="announcements-hint" variant="body2" color="text.secondary" data-testid="announcements-hint">
        {t('profile.announcementsHint')}
      </Typography>
    </Paper>
  );
}
