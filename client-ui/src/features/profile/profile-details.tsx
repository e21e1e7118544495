import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { enumLabel, type User } from '@kupa/proto';
import { formatDate, formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';

/** The read-only facts about the signed-in user, as a description list. */
export function ProfileDetails({ user }: { user: User }) {
  const { t, lang } = useT();
  const rows: Array<[string, ReactNode, string]> = [
    [t('profile.fullName'), user.fullName, 'profile-full-name'],
    [t('profile.email'), <bdi key="email">{user.email}</bdi>, 'profile-email'],
    [t('profile.profileId'), <bdi key="id">{user.profileId}</bdi>, 'profile-id'],
    [t('profile.role'), enumLabel('userRole', user.role, lang), 'profile-role'],
    [t('profile.status'), enumLabel('userStatus', user.status, lang), 'profile-status'],
    [t('profile.balance'), <bdi key="balance">{formatDollars(user.balance, lang)}</bdi>, 'profile-balance'],
    [t('profile.registered'), formatDate(user.userCreatedAt, lang), 'profile-registered'],
  ];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="profile-details-title" sx={{ p: 3 }}>
      <Typography id="profile-details-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('profile.details')}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 4, rowGap: 1.5, m: 0 }}
      >
        {rows.map(([label, value, testId]) => (
          <Box key={testId} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 500 }} data-testid={testId}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
