import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { clientEnumLabel, type User } from '@kupa/proto';
import { formatDate, formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { DescriptionList } from '../../lib/ui/description-list';

/** The read-only facts about the signed-in user, as a description list. */
export function ProfileDetails({ user }: { user: User }) {
  const { t, lang } = useT();
  const rows: Array<[string, ReactNode, string]> = [
    [t('profile.fullName'), user.fullName, 'profile-full-name'],
    [t('profile.email'), <bdi key="email">{user.email}</bdi>, 'profile-email'],
    [t('profile.profileId'), <bdi key="id">{user.profileId}</bdi>, 'profile-id'],
    [t('profile.role'), clientEnumLabel('userRole', user.role, lang), 'profile-role'],
    [t('profile.status'), clientEnumLabel('userStatus', user.status, lang), 'profile-status'],
    [
      t('profile.balance'),
      <bdi key="balance" dir="ltr">
        {formatDollars(user.balance, lang)}
      </bdi>,
      'profile-balance',
    ],
    [t('profile.registered'), formatDate(user.userCreatedAt, lang), 'profile-registered'],
  ];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="profile-details-title" sx={{ p: 3 }}>
      <Typography id="profile-details-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('profile.details')}
      </Typography>
      <DescriptionList rows={rows} />
    </Paper>
  );
}
