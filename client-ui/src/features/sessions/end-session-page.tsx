import { getRouteApi } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { API_ROUTES, formatClientErrorMessage } from '@kupa/proto';
import { api } from '../../lib/api/api-client';
import { errorMessageFor } from '../../lib/api/api-error';
import { useT } from '../../lib/i18n/i18n';
import { AuthCard } from '../../lib/ui/page';

const routeApi = getRouteApi('/end-session');

const WORDS = {
  he: {
    title: 'ניתוק התחברות',
    intro: 'ההתחברות מהמכשיר החדש שעליו הודענו לך תנותק מיד.',
    hint: 'אם לא את/ה נכנסת, החליפו גם את הסיסמה.',
    submit: 'ניתוק ההתחברות',
    done: 'ההתחברות נותקה. מומלץ להחליף את הסיסמה.',
  },
  en: {
    title: 'End a session',
    intro: 'The session of the new device we told you about will end at once.',
    hint: 'If it was not you, change your password too.',
    submit: 'End the session',
    done: 'The session ended. Changing your password is a good idea.',
  },
} as const;

/**
 * The new-device mail's link (ADR 0099): no sign-in, the signed token names the session. It says what the button does
 * before it is pressed, since a mail scanner that opens links must not end anything.
 */
export function EndSessionPage() {
  const { lang } = useT();
  const words = WORDS[lang];
  const { token } = routeApi.useSearch();
  const end = useMutation({
    mutationFn: (value: string) => api.post<void>(API_ROUTES.sessionEndLink, { token: value }, { skipRefresh: true }),
    meta: { silentError: true },
  });
  return (
    <AuthCard title={words.title}>
      {token === undefined ? (
        <Alert severity="error" data-testid="end-session-error">
          {formatClientErrorMessage('error.session.end.link.invalid', lang)}
        </Alert>
      ) : end.isSuccess ? (
        <Alert severity="success" role="status" data-testid="end-session-done">
          {words.done}
        </Alert>
      ) : (
        <>
          <Typography data-testid="end-session-intro">{words.intro}</Typography>
          <Typography variant="body2" color="text.secondary">
            {words.hint}
          </Typography>
          {end.isError && (
            <Alert severity="error" data-testid="end-session-error">
              {errorMessageFor(end.error, lang)}
            </Alert>
          )}
          <Button
            variant="outlined"
            color="error"
            disabled={end.isPending}
            onClick={() => end.mutate(token)}
            data-testid="end-session-submit"
          >
            {words.submit}
          </Button>
        </>
      )}
    </AuthCard>
  );
}
