import {
  API_ROUTES,
  keptOnOneLine,
  LANGUAGE_LOCALES,
  type TelegramLinkStatus,
  type TelegramLinkTokenResponse,
} from '@kupa/proto';
import { Alert, Box, Button, Card, CardContent, Link, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { ApiError, httpClient } from '../providers/http-client';
import { Ltr } from '../shared/ltr';
import { useRichTranslate } from '../shared/rich-translate';
import { useLang } from '../shared/use-lang';

/** How often the card asks whether the bot has linked the chat, while a link waits for the staff member's Start. */
export const TELEGRAM_LINK_POLL_MS = 2_000;

export const telegramApi = {
  async status(): Promise<TelegramLinkStatus> {
    return (await httpClient<TelegramLinkStatus>(API_ROUTES.myTelegram)).json;
  },
  async linkToken(): Promise<TelegramLinkTokenResponse> {
    return (await httpClient<TelegramLinkTokenResponse>(API_ROUTES.myTelegramLinkToken, { method: 'POST' })).json;
  },
  async unlink(): Promise<void> {
    await httpClient(API_ROUTES.myTelegram, { method: 'DELETE' });
  },
};

/**
 * The signed-in staff member's Telegram link, for staff alerts (docs/adr/0103-telegram-channel.md): as the portal's
 * profile card, a one-time deep link opened in a new tab (opened within the click, so no pop-up blocker stops it, and
 * cut off from this window), then the status polled until the bot linked the chat or the link expired; linked, the
 * account and the day, and unlinking after a confirmation.
 */
export function TelegramCard() {
  const translate = useTranslate();
  const richTranslate = useRichTranslate();
  const notify = useNotify();
  const lang = useLang();
  const locale = LANGUAGE_LOCALES[lang];
  const [status, setStatus] = useState<TelegramLinkStatus | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [waiting, setWaiting] = useState<TelegramLinkTokenResponse | null>(null);
  const [expired, setExpired] = useState(false);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    try {
      const current = await telegramApi.status();
      setStatus(current);
      setLoadFailed(false);
      return current;
    } catch {
      setLoadFailed(true);
      return null;
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  // While a link waits for Start: ask every few seconds, until the chat is linked or the link has expired.
  useEffect(() => {
    if (waiting === null || expired) return;
    const expiry = setTimeout(() => setExpired(true), Math.max(0, new Date(waiting.expiresAt).getTime() - Date.now()));
    const poll = setInterval(() => {
      void load().then((current) => {
        if (!current?.linked) return;
        setWaiting(null);
        notify('kupa.telegram.linked_now', { type: 'success' });
      });
    }, TELEGRAM_LINK_POLL_MS);
    return () => {
      clearTimeout(expiry);
      clearInterval(poll);
    };
  }, [waiting, expired, load, notify]);

  const link = async () => {
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    setPending(true);
    try {
      const token = await telegramApi.linkToken();
      tab?.location.replace(token.deepLink);
      setExpired(false);
      setWaiting(token);
    } catch (error) {
      tab?.close();
      const message = error instanceof Error ? error.message : String(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setPending(false);
    }
  };

  const unlink = async () => {
    setPending(true);
    try {
      await telegramApi.unlink();
      notify('kupa.telegram.unlinked', { type: 'success' });
    } catch (error) {
      // Unlinked from the bot meanwhile: the card was only behind, which the reload below puts right.
      if (!(error instanceof ApiError && error.code === 'error.telegram.not.linked')) {
        const message = error instanceof Error ? error.message : String(error);
        notify(message, { type: 'error', messageArgs: { _: message } });
      }
    } finally {
      setPending(false);
      setConfirming(false);
      setWaiting(null);
      void load();
    }
  };

  const body = () => {
    if (loadFailed && status === null) return <Alert severity="error">{translate('kupa.telegram.failed')}</Alert>;
    if (status === null) return null;
    if (!status.configured)
      return (
        <Typography color="text.secondary" data-testid="telegram-not-configured">
          {translate('kupa.telegram.not_configured')}
        </Typography>
      );
    if (status.linked)
      return (
        <Box data-testid="telegram-linked">
          <Typography data-testid="telegram-username">
            {status.username
              ? richTranslate('kupa.telegram.linked_as', { username: <Ltr>@{status.username}</Ltr> })
              : translate('kupa.telegram.linked_no_name')}
          </Typography>
          {status.linkedAt ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="telegram-linked-at">
              {translate('kupa.telegram.linked_on', {
                date: keptOnOneLine(new Date(status.linkedAt).toLocaleDateString(locale, { dateStyle: 'medium' })),
              })}
            </Typography>
          ) : null}
          <Button
            variant="outlined"
            color="error"
            disabled={pending}
            onClick={() => setConfirming(true)}
            data-testid="telegram-unlink"
          >
            {translate('kupa.telegram.unlink')}
          </Button>
        </Box>
      );
    return (
      <Box>
        <Typography sx={{ mb: 2 }} data-testid="telegram-none">
          {translate('kupa.telegram.none')}
        </Typography>
        {waiting !== null && !expired ? (
          <Alert severity="info" role="status" sx={{ mb: 2 }} data-testid="telegram-waiting">
            <Typography variant="body2" sx={{ mb: 1 }}>
              {translate('kupa.telegram.waiting', {
                time: keptOnOneLine(new Date(waiting.expiresAt).toLocaleTimeString(locale, { timeStyle: 'short' })),
              })}
            </Typography>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {translate('kupa.telegram.checking')}
            </Typography>
            <Link href={waiting.deepLink} target="_blank" rel="noopener noreferrer" data-testid="telegram-open">
              {translate('kupa.telegram.open')}
            </Link>
          </Alert>
        ) : null}
        {expired ? (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="telegram-expired">
            {translate('kupa.telegram.expired')}
          </Alert>
        ) : null}
        {waiting === null || expired ? (
          <Button variant="contained" disabled={pending} onClick={() => void link()} data-testid="telegram-link">
            {translate(pending ? 'kupa.telegram.opening' : 'kupa.telegram.link')}
          </Button>
        ) : null}
      </Box>
    );
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="telegram-card" component="section" aria-labelledby="telegram-card-title">
      <CardContent>
        <Typography id="telegram-card-title" variant="h5" component="h2" gutterBottom>
          {translate('kupa.telegram.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('kupa.telegram.intro')}
        </Typography>
        {body()}
      </CardContent>
      <Confirm
        isOpen={confirming}
        loading={pending}
        title="kupa.telegram.unlink_title"
        content="kupa.telegram.unlink_content"
        confirm="kupa.telegram.unlink"
        confirmColor="warning"
        onConfirm={() => void unlink()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
