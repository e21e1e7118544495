import { Alert, Box, Button, Card, CardContent, Chip, TextField, Typography } from '@mui/material';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { type EnrolmentAuthority, twoFactorApi } from '../providers/two-factor';
import { TelegramCard } from '../telegram/telegram-card';
import { TwoFactorEnrolment } from './two-factor-enrolment';

/**
 * The console route of the staff member's own settings (reached from the user menu): two-factor sign-in, and the
 * Telegram link that staff alerts go to.
 */
export const TWO_FACTOR_PATH = '/two-factor';

function DisableForm({ onDisabled }: { onDisabled(): void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    setPending(true);
    setError(null);
    try {
      await twoFactorApi.disable(code.trim());
      notify('kupa.two_factor.disabled', { type: 'success' });
      onDisabled();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setPending(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="two-factor-disable-form">
      <Typography variant="subtitle1" component="h2" gutterBottom>
        {translate('kupa.two_factor.disable_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('kupa.two_factor.disable_hint')}
      </Typography>
      {error ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }} data-testid="two-factor-disable-error">
          {error}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={translate('kupa.two_factor.code_or_recovery')}
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'two-factor-disable-code', dir: 'ltr' } }}
        />
        <Button
          type="submit"
          variant="outlined"
          color="error"
          disabled={pending || code.trim() === ''}
          data-testid="two-factor-disable"
        >
          {translate('kupa.two_factor.disable')}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The signed-in staff member's two-factor sign-in: on or off, turning it on (enrolment) and off (with a code). The
 * state is read from `/users/me`, so it always shows what the server holds.
 */
export function TwoFactorPage() {
  const translate = useTranslate();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const authority = useMemo<EnrolmentAuthority>(() => ({ kind: 'session' }), []);

  const load = useCallback(() => {
    twoFactorApi
      .isEnabled()
      .then(setEnabled)
      .catch((caught: unknown) => setLoadError(caught instanceof Error ? caught.message : String(caught)));
  }, []);
  useEffect(load, [load]);

  return (
    <Box sx={{ maxWidth: 560, mt: 2 }} data-testid="two-factor-page">
      <Title title={translate('kupa.two_factor.title')} />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h2" gutterBottom>
            {translate('kupa.two_factor.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('kupa.two_factor.intro')}
          </Typography>
          {loadError ? <Alert severity="error">{loadError}</Alert> : null}
          {enabled === null ? null : (
            <Chip
              sx={{ mb: 2 }}
              color={enabled ? 'success' : 'default'}
              label={translate(enabled ? 'kupa.two_factor.status_on' : 'kupa.two_factor.status_off')}
              data-testid="two-factor-status"
            />
          )}
          {enabled === true && !enrolling ? <DisableForm onDisabled={() => setEnabled(false)} /> : null}
          {enabled === false && !enrolling ? (
            <Box>
              <Button variant="contained" onClick={() => setEnrolling(true)} data-testid="two-factor-start">
                {translate('kupa.two_factor.turn_on')}
              </Button>
            </Box>
          ) : null}
          {enabled !== null && enrolling ? (
            <TwoFactorEnrolment
              authority={authority}
              // The chip says On as soon as the server does, while the recovery codes are still on screen.
              onActivated={() => setEnabled(true)}
              onDone={() => {
                setEnrolling(false);
                load();
              }}
            />
          ) : null}
        </CardContent>
      </Card>
      <TelegramCard />
    </Box>
  );
}
