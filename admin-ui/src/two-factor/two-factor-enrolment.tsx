import { type TwoFactorEnrolment as Enrolment } from '@kupa/proto';
import { Alert, Box, Button, CircularProgress, TextField, Typography } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useText } from '../i18n/text';
import { type EnrolmentAuthority, twoFactorApi } from '../providers/two-factor';
import { RecoveryCodes } from './recovery-codes';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Enrolment of an authenticator app: the server makes a secret and answers it as a QR image (a `data:` URL, which
 * the console's CSP allows) and as text for typing by hand; the first code confirms it, and the recovery codes follow
 * once. Used by the two-factor screen (with the session) and by the sign-in page (with an enrolment token).
 */
export function TwoFactorEnrolment({
  authority,
  onActivated,
  onDone,
}: {
  authority: EnrolmentAuthority;
  /** The server turned it on: called as the recovery codes appear, before the staff member is done with them. */
  onActivated?(): void;
  onDone(): void;
}) {
  const translate = useText();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  useEffect(() => {
    let current = true;
    twoFactorApi
      .startEnrolment(authority)
      .then((started) => current && setEnrolment(started))
      .catch((caught: unknown) => current && setError(messageOf(caught)));
    return () => {
      current = false;
    };
  }, [authority]);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    setPending(true);
    setError(null);
    try {
      setRecoveryCodes((await twoFactorApi.activate(code.trim(), authority)).recoveryCodes);
      onActivated?.();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setPending(false);
    }
  };

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={onDone} />;
  return (
    <Box component="form" noValidate onSubmit={confirm} data-testid="two-factor-enrolment">
      {error ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="two-factor-error">
          {error}
        </Alert>
      ) : null}
      {enrolment ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('kupa.two_factor.scan')}
          </Typography>
          <Box sx={{ display: 'flex', justifyContent: 'center', mb: 1 }}>
            <img
              src={enrolment.qrDataUrl}
              alt={translate('kupa.two_factor.qr_alt')}
              width={200}
              height={200}
              data-testid="two-factor-qr"
            />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {translate('kupa.two_factor.manual_entry')}
          </Typography>
          <Typography
            component="p"
            dir="ltr"
            data-testid="two-factor-secret"
            sx={{ fontFamily: 'monospace', wordBreak: 'break-all', mb: 2, userSelect: 'all' }}
          >
            {enrolment.secret}
          </Typography>
          <TextField
            label={translate('kupa.two_factor.code')}
            autoComplete="one-time-code"
            fullWidth
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'two-factor-code', dir: 'ltr', inputMode: 'numeric' } }}
          />
          <Button
            type="submit"
            variant="contained"
            fullWidth
            sx={{ mt: 2 }}
            disabled={pending || code.trim() === ''}
            data-testid="two-factor-confirm"
          >
            {translate('kupa.two_factor.confirm')}
          </Button>
        </>
      ) : error ? null : (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress aria-label={translate('ra.page.loading')} />
        </Box>
      )}
    </Box>
  );
}
