import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TelegramLinkStatus, TelegramLinkTokenResponse } from '@kupa/proto';
import { isApiError } from '../../lib/api/api-error';
import { notifyError } from '../../lib/api/query-client';
import { browser } from '../../lib/browser';
import { formatDate, formatTime } from '../../lib/format';
import { usePartT } from '../../lib/i18n/dictionary-part';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { ConfirmDialog } from '../../lib/ui/confirm-dialog';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { notificationSettingsApi, TELEGRAM_LINK_QUERY_KEY } from './notification-settings-api';
import { NOTIFICATION_SETTINGS_MESSAGES } from './notification-settings-text';

/** How often the card asks whether the bot has linked the chat, while a link is waiting for the person's Start. */
export const TELEGRAM_LINK_POLL_MS = 2_000;

/** The signed-in person's Telegram link, shared by the card and the Notifications section's Telegram column. */
export function useTelegramLink(pollWhile?: (status: TelegramLinkStatus | undefined) => boolean) {
  return useQuery({
    queryKey: TELEGRAM_LINK_QUERY_KEY,
    queryFn: notificationSettingsApi.telegram,
    refetchInterval: (query) => (pollWhile?.(query.state.data) ? TELEGRAM_LINK_POLL_MS : false),
  });
}

/**
 * The profile's Telegram card (docs/adr/0103-telegram-channel.md). Linking asks the API for a one-time deep link,
 * opens it in a new tab (the tab is opened on the click itself, so that a popup blocker lets it through, and is
 * pointed at the link once the API answers; the link is also offered to click) and asks the person to press Start in
 * the bot; the card then polls the status until the chat is linked or the link has expired. Linked, it names the
 * Telegram account and the day, and unlinks after a confirmation.
 */
export function TelegramCard() {
  const { t, tIsolated, lang } = usePartT(NOTIFICATION_SETTINGS_MESSAGES);
  const { t: appT } = useT();
  const queryClient = useQueryClient();
  const [waiting, setWaiting] = useState<TelegramLinkTokenResponse | null>(null);
  const [expired, setExpired] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const status = useTelegramLink((current) => waiting !== null && !expired && current?.linked !== true);
  const linked = status.data?.linked === true;

  // The link is worth nothing after its expiry: stop polling then, and say so, unless the chat got linked.
  useEffect(() => {
    if (waiting === null) return;
    const left = new Date(waiting.expiresAt).getTime() - Date.now();
    const timer = setTimeout(() => setExpired(true), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [waiting]);

  useEffect(() => {
    if (!linked || waiting === null) return;
    setWaiting(null);
    showToast({ severity: 'success', title: appT('toast.successTitle'), message: t('telegramLinkedNow') });
  }, [linked, waiting, t, appT]);

  const link = useMutation({
    mutationFn: async (tab: ReturnType<typeof browser.openTab>) => {
      try {
        return { token: await notificationSettingsApi.telegramLinkToken(), tab };
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onSuccess: ({ token, tab }) => {
      tab?.go(token.deepLink);
      setExpired(false);
      setWaiting(token);
    },
  });
  const unlink = useMutation({
    mutationFn: notificationSettingsApi.unlinkTelegram,
    // Unlinked from the bot meanwhile: the card was only behind, which the refresh below puts right.
    meta: { silentError: true },
    onSettled: (_data, error) => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: TELEGRAM_LINK_QUERY_KEY });
      if (error && !(isApiError(error) && error.code === 'error.telegram.not.linked')) {
        notifyError(error);
        return;
      }
      setWaiting(null);
      showToast({ severity: 'success', title: appT('toast.successTitle'), message: t('telegramUnlinked') });
    },
  });

  // Not loaded yet, or an answer of another shape: the rest of the profile stands without the card.
  if (typeof status.data?.configured !== 'boolean') return null;
  const { configured, username, linkedAt } = status.data;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="telegram-title"
      sx={{ p: 3 }}
      data-testid="telegram-card"
    >
      <Typography id="telegram-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('telegramTitle')}
      </Typography>
      {!configured ? (
        <Typography color="text.secondary" data-testid="telegram-not-configured">
          {t('telegramNotConfigured')}
        </Typography>
      ) : linked ? (
        <>
          <Stack spacing={0.5} sx={{ mb: 2 }} data-testid="telegram-linked">
            <Typography data-testid="telegram-username">
              {username ? tIsolated('telegramLinkedAs', { username: `@${username}` }) : t('telegramLinkedNoName')}
            </Typography>
            {linkedAt ? (
              <Typography variant="body2" color="text.secondary" data-testid="telegram-linked-at">
                {t('telegramLinkedOn', { date: formatDate(linkedAt, lang) })}
              </Typography>
            ) : null}
          </Stack>
          <ReadOnlyAction>
            <Button variant="outlined" color="error" onClick={() => setConfirming(true)} data-testid="telegram-unlink">
              {t('telegramUnlink')}
            </Button>
          </ReadOnlyAction>
        </>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('telegramIntro')}
          </Typography>
          <Typography sx={{ mb: 2 }} data-testid="telegram-none">
            {t('telegramNone')}
          </Typography>
          {waiting !== null && !expired ? (
            <Alert severity="info" role="status" sx={{ mb: 2 }} data-testid="telegram-waiting">
              <Typography variant="body2" sx={{ mb: 1 }}>
                {t('telegramWaiting', { time: formatTime(waiting.expiresAt, lang) })}
              </Typography>
              <Typography variant="body2" sx={{ mb: 1 }}>
                {t('telegramChecking')}
              </Typography>
              <Link href={waiting.deepLink} target="_blank" rel="noopener noreferrer" data-testid="telegram-open">
                {t('telegramOpen')}
              </Link>
            </Alert>
          ) : null}
          {expired ? (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="telegram-expired">
              {t('telegramExpired')}
            </Alert>
          ) : null}
          {waiting === null || expired ? (
            <ReadOnlyAction>
              <Button
                variant="contained"
                disabled={link.isPending}
                // The tab opens on the click itself: opened after the API's answer, a popup blocker would stop it.
                onClick={() => link.mutate(browser.openTab())}
                data-testid="telegram-link"
              >
                {link.isPending ? t('telegramOpening') : t('telegramLink')}
              </Button>
            </ReadOnlyAction>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('telegramUnlinkTitle')}
        confirmLabel={t('telegramUnlink')}
        destructive
        pending={unlink.isPending}
        testId="telegram-unlink"
        onConfirm={() => unlink.mutate()}
        onClose={() => setConfirming(false)}
      >
        {t('telegramUnlinkText')}
      </ConfirmDialog>
    </Paper>
  );
}
