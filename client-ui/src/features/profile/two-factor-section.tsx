import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TwoFactorEnrolment } from '@kupa/proto';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { twoFactorApi } from '../../lib/api/endpoints';
import { notifyError } from '../../lib/api/query-client';
import { ME_QUERY_KEY } from '../../lib/api/use-me';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { ONE_TIME_CODE_ERRORS, OneTimeCodeField } from '../../lib/ui/one-time-code-field';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { useTwoFactorText } from '../../lib/ui/two-factor-text';

/**
 * The profile's security section (docs/adr/0098-client-two-factor-and-step-up.md): turn two-factor sign-in on (QR code,
 * the first code, then the recovery codes shown once) or off with a code. Part of the lazily loaded profile page, so
 * the first screen's bundle does not carry it (ADR 0048).
 */
export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t, lang } = useT();
  const tf = useTwoFactorText();
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();

  const refusedCode = (error: unknown) => {
    if (isApiError(error) && ONE_TIME_CODE_ERRORS.has(error.code)) setCodeError(errorMessageFor(error, lang));
    else notifyError(error);
  };
  const start = useMutation({ mutationFn: twoFactorApi.startEnrolment, onSuccess: setEnrolment });
  const activate = useMutation({
    mutationFn: twoFactorApi.activate,
    meta: { silentError: true },
    onSuccess: async (activation) => {
      setEnrolment(null);
      setCode('');
      setRecoveryCodes(activation.recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    onError: refusedCode,
  });
  const deactivate = useMutation({
    mutationFn: twoFactorApi.deactivate,
    meta: { silentError: true },
    onSuccess: async () => {
      setTurningOff(false);
      setCode('');
      showToast({ severity: 'success', title: t('toast.successTitle'), message: tf('disabled') });
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
    onError: refusedCode,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setCodeError(tf('codeHint'));
      return;
    }
    if (enrolment) activate.mutate({ code: code.trim() });
    else deactivate.mutate({ code: code.trim() });
  };
  const codeForm = (submitLabel: string, pending: boolean, onCancel: () => void) => (
    <Stack component="form" spacing={2} noValidate onSubmit={submit} sx={{ maxWidth: 360 }}>
      <OneTimeCodeField
        value={code}
        onChange={(value) => {
          setCode(value);
          setCodeError(undefined);
        }}
        error={codeError}
        testId="two-factor-code"
        autoFocus
      />
      <Stack direction="row" spacing={1.5}>
        <Button type="submit" variant="contained" disabled={pending} data-testid="two-factor-submit">
          {pending ? t('form.sending') : submitLabel}
        </Button>
        <Button variant="text" onClick={onCancel} disabled={pending}>
          {t('common.cancel')}
        </Button>
      </Stack>
    </Stack>
  );
  const reset = () => {
    setEnrolment(null);
    setTurningOff(false);
    setCode('');
    setCodeError(undefined);
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="two-factor-title" sx={{ p: 3 }}>
      <Stack direction="row" spacing={1.5} sx={{ mb: 1, alignItems: 'center' }}>
        <Typography id="two-factor-title" variant="h6" component="h2">
          {tf('title')}
        </Typography>
        <Chip
          size="small"
          color={enabled ? 'success' : 'default'}
          label={enabled ? tf('on') : tf('off')}
          data-testid="two-factor-state"
        />
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 640 }}>
        {tf('intro')}
      </Typography>
      {recoveryCodes ? (
        <Stack spacing={2} data-testid="two-factor-recovery">
          <Alert severity="success">{tf('enabled')}</Alert>
          <Typography variant="subtitle1" component="h3">
            {tf('recoveryTitle')}
          </Typography>
          <Typography color="text.secondary">{tf('recoveryIntro')}</Typography>
          <Box
            component="ul"
            dir="ltr"
            sx={{ fontFamily: 'monospace', columns: 2, m: 0, pl: 3, maxWidth: 420 }}
            data-testid="two-factor-recovery-codes"
          >
            {recoveryCodes.map((recovery) => (
              <li key={recovery}>{recovery}</li>
            ))}
          </Box>
          <div>
            <Button variant="contained" onClick={() => setRecoveryCodes(null)} data-testid="two-factor-recovery-saved">
              {tf('recoverySaved')}
            </Button>
          </div>
        </Stack>
      ) : enrolment ? (
        <Stack spacing={2} data-testid="two-factor-enrolment">
          <Typography>{tf('scan')}</Typography>
          <Box
            component="img"
            src={enrolment.qrDataUrl}
            alt={tf('title')}
            sx={{ width: 200, height: 200, bgcolor: '#fff', borderRadius: 1 }}
            data-testid="two-factor-qr"
          />
          <Typography variant="body2">
            {tf('key')}:{' '}
            <Box
              component="bdi"
              dir="ltr"
              sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
              data-testid="two-factor-secret"
            >
              {enrolment.secret}
            </Box>
          </Typography>
          {codeForm(tf('confirm'), activate.isPending, reset)}
        </Stack>
      ) : turningOff ? (
        <Stack spacing={2}>
          <Typography>{tf('turnOffIntro')}</Typography>
          {codeForm(tf('turnOff'), deactivate.isPending, reset)}
        </Stack>
      ) : (
        <ReadOnlyAction>
          {enabled ? (
            <Button
              variant="outlined"
              color="error"
              onClick={() => setTurningOff(true)}
              data-testid="two-factor-turn-off"
            >
              {tf('turnOff')}
            </Button>
          ) : (
            <Button
              variant="contained"
              onClick={() => start.mutate()}
              disabled={start.isPending}
              data-testid="two-factor-turn-on"
            >
              {start.isPending ? t('form.sending') : tf('turnOn')}
            </Button>
          )}
        </ReadOnlyAction>
      )}
    </Paper>
  );
}
