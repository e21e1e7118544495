import { lazy, Suspense } from 'react';
import Skeleton from '@mui/material/Skeleton';
import { useMe } from '../../lib/api/use-me';
import { importWithReload } from '../../lib/reload-once';
import { useT } from '../../lib/i18n/i18n';
import { Page } from '../../lib/ui/page';
import { ChangeEmailForm } from './change-email-form';
import { ChangePasswordForm } from './change-password-form';
import { EditNameForm } from './edit-name-form';
import { NotificationsSection } from './notifications-section';
import { ProfileDetails } from './profile-details';
import { SavedCardSection } from './saved-card-section';
import { TelegramCard } from './telegram-card';
import { TwoFactorSection } from './two-factor-section';

/** The sessions list loads on its own (ADR 0099): the profile opens without waiting for it. */
const SessionsSection = lazy(() =>
  importWithReload(() => import('../sessions/sessions-section'))().then((module) => ({
    default: module.SessionsSection,
  })),
);

/**
 * The signed-in user's details, name editing, change of e-mail, password change, two-factor sign-in, the saved card, the
 * Telegram link, the notification preferences (which hold the former announcements switch) and the active sessions.
 */
export function MyProfilePage() {
  const { t } = useT();
  const { data: me } = useMe();
  return (
    <Page title={t('profile.title')}>
      {me ? (
        <>
          <ProfileDetails user={me} />
          {/* Keyed by the stored name so the form starts over from the saved values after an update. */}
          <EditNameForm key={`${me.firstName}\u0000${me.lastName}`} user={me} />
          <ChangeEmailForm twoFactorEnabled={me.twoFactorEnabled} />
          <ChangePasswordForm twoFactorEnabled={me.twoFactorEnabled} />
          <TwoFactorSection enabled={me.twoFactorEnabled} />
          <SavedCardSection />
          <TelegramCard />
          <NotificationsSection />
          <Suspense fallback={null}>
            <SessionsSection />
          </Suspense>
        </>
      ) : (
        <Skeleton variant="rounded" height={240} />
      )}
    </Page>
  );
}
