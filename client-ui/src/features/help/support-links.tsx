import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TelegramIcon from '@mui/icons-material/Telegram';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import type { SupportContacts } from '@kupa/proto';
import { useT } from '../../lib/i18n/i18n';

/**
 * The configured support contacts as links (`variant="link"`, inside text) or outlined buttons; a contact that is not
 * configured is left out, and with none configured nothing is drawn.
 */
export function SupportLinks({ contacts, variant }: { contacts: SupportContacts; variant: 'link' | 'button' }) {
  const { t } = useT();
  const { telegram, email } = contacts;
  if (telegram === null && email === null) return null;
  if (variant === 'link') {
    return (
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {telegram !== null && (
          <Link href={telegram} target="_blank" rel="noopener noreferrer" data-testid="support-telegram">
            {t('help.telegram')}
          </Link>
        )}
        {email !== null && (
          <Link href={`mailto:${email}`} data-testid="support-email">
            <bdi>{email}</bdi>
          </Link>
        )}
      </Stack>
    );
  }
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {telegram !== null && (
        <Button
          variant="outlined"
          startIcon={<TelegramIcon />}
          href={telegram}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="support-telegram"
        >
          {t('help.telegram')}
        </Button>
      )}
      {email !== null && (
        <Button variant="outlined" startIcon={<MailOutlineIcon />} href={`mailto:${email}`} data-testid="support-email">
          {/* One span, so the flex layout of the button keeps the space between the label and the address. */}
          <span>
            {t('help.email')}: <bdi>{email}</bdi>
          </span>
        </Button>
      )}
    </Stack>
  );
}
