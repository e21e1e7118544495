import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import { STAFF_CONSOLE_URL } from '../../../app/access';
import { type DictionaryPart, usePartT } from '../../../lib/i18n/dictionary-part';

const he = {
  title: 'החשבון הזה שייך לצוות',
  body: 'אנשי צוות מתחברים לממשק הניהול. התנתקת מאפליקציית הלקוחות.',
  link: 'מעבר לממשק הניהול',
} as const;

/**
 * Shown on the sign-in page to a staff member who signed in here (or was sent here signed out): a chunk of its own
 * with its texts, since clients never see it and the sign-in page is the first screen
 * (docs/adr/0048-first-screen-in-one-chunk.md).
 */
export const STAFF_NOTICE_MESSAGES: DictionaryPart<keyof typeof he> = {
  he,
  en: {
    title: 'This is a staff account',
    body: 'Staff sign in to the staff console. You have been signed out of the client app.',
    link: 'Go to the staff console',
  },
};

export function StaffNotice() {
  const { t } = usePartT(STAFF_NOTICE_MESSAGES);
  return (
    <Alert severity="info" data-testid="staff-notice">
      <AlertTitle>{t('title')}</AlertTitle>
      {t('body')}{' '}
      <Link href={STAFF_CONSOLE_URL} data-testid="staff-console-link">
        {t('link')}
      </Link>
    </Alert>
  );
}
