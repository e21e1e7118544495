import { keptOnOneLine, type UserTelegram } from '@kupa/proto';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useLang } from '../shared/use-lang';

function formatDay(value: string, lang: string): string {
  return keptOnOneLine(
    new Date(value).toLocaleDateString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }),
  );
}

/**
 * Whether the client's Telegram is linked, since when, and whether the bot is blocked there (Telegram answered 403:
 * nothing reaches the chat until the client links again), read only
 * (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md). The API gives staff no chat id nor username, so
 * there is none to show.
 */
export function ClientTelegramState({ telegram }: { telegram: UserTelegram | undefined }) {
  const translate = useTranslate();
  const lang = useLang();
  if (!telegram) return null;
  const { linked, linkedAt, blockedAt } = telegram;
  const state = !linked ? 'not_linked' : blockedAt ? 'blocked' : 'linked';
  return (
    <Box
      component="dl"
      data-testid="client-telegram"
      data-state={state}
      sx={{ m: 0, mb: 2, display: 'grid', gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)', gap: 1 }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {translate('kupa.clients.telegram.label')}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
        <Typography variant="body2" data-testid="client-telegram-link">
          {linked && linkedAt
            ? translate('kupa.clients.telegram.linked', { date: formatDay(linkedAt, lang) })
            : translate('kupa.clients.telegram.not_linked')}
        </Typography>
        {linked && blockedAt && (
          <Typography variant="body2" color="warning.main" data-testid="client-telegram-blocked">
            {translate('kupa.clients.telegram.blocked', { date: formatDay(blockedAt, lang) })}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
