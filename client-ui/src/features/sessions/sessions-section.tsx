import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  API_ROUTES,
  countryName,
  IP2LOCATION_ATTRIBUTION_LEAD,
  IP2LOCATION_URL,
  type UserSessionView,
} from '@kupa/proto';
import { api } from '../../lib/api/api-client';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { SESSIONS_TEXT, sessionDeviceName } from './sessions-text';

const SESSIONS_QUERY_KEY = ['my-sessions'] as const;

/**
 * The user's live sessions (ADR 0099): device, the country of the sign-in beside it when known (ADR 0101), address,
 * when it signed in and was last used, this one marked; each other one can be ended, or all of them at once. Loaded on
 * demand from the profile page. IP2Location LITE's licence asks its attribution wherever its countries show.
 */
export function SessionsSection() {
  const { lang } = useT();
  const words = SESSIONS_TEXT[lang];
  const queryClient = useQueryClient();
  const { data: sessions } = useQuery({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: () => api.get<UserSessionView[]>(API_ROUTES.mySessions),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
  const endOne = useMutation({
    mutationFn: (id: string) => api.delete<void>(API_ROUTES.mySession(id)),
    onSuccess: refresh,
  });
  const endOthers = useMutation({
    mutationFn: () => api.delete<{ ended: number }>(API_ROUTES.mySessions),
    onSuccess: refresh,
  });
  // Not loaded yet, or an answer that is not a list: the rest of the profile stands without the section.
  if (!Array.isArray(sessions)) return null;
  const others = sessions.filter((session) => !session.current);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="sessions-title" sx={{ p: 3 }} data-testid="sessions">
      <Typography id="sessions-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {words.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {words.hint}
      </Typography>
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {sessions.map((session) => (
          <Paper
            key={session.id}
            component="li"
            variant="outlined"
            sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
            data-testid="session"
          >
            <Stack sx={{ flex: '1 1 16rem', minWidth: 0 }} spacing={0.25}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography sx={{ fontWeight: 600 }} data-testid="session-device">
                  {sessionDeviceName(session, lang)}
                  {countryName(session.countryCode, lang) && (
                    <Typography component="span" sx={{ fontWeight: 400 }} data-testid="session-country">
                      {' · '}
                      {countryName(session.countryCode, lang)}
                    </Typography>
                  )}
                </Typography>
                {session.current && (
                  <Chip size="small" color="primary" label={words.thisDevice} data-testid="session-current" />
                )}
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {words.address}: <bdi dir="ltr">{session.ipAddress ?? '—'}</bdi>
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {words.started}: {formatDateTime(session.startedAt, lang)} · {words.lastUsed}:{' '}
                {formatDateTime(session.lastUsedAt, lang)}
              </Typography>
            </Stack>
            {!session.current && (
              <ReadOnlyAction>
                <Button
                  variant="outlined"
                  color="error"
                  size="small"
                  disabled={endOne.isPending}
                  onClick={() => endOne.mutate(session.id)}
                  data-testid="session-end"
                >
                  {words.end}
                </Button>
              </ReadOnlyAction>
            )}
          </Paper>
        ))}
      </Stack>
      {others.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="sessions-none">
          {words.none}
        </Typography>
      ) : (
        <ReadOnlyAction>
          <Button
            sx={{ mt: 2 }}
            variant="outlined"
            color="error"
            disabled={endOthers.isPending}
            onClick={() => endOthers.mutate()}
            data-testid="sessions-end-others"
          >
            {words.endOthers}
          </Button>
        </ReadOnlyAction>
      )}
      <Typography
        variant="caption"
        color="text.secondary"
        component="p"
        sx={{ mt: 2, textAlign: 'start' }}
        data-testid="sessions-attribution"
      >
        <bdi dir="ltr">
          {IP2LOCATION_ATTRIBUTION_LEAD}
          <Link href={IP2LOCATION_URL} target="_blank" rel="noopener noreferrer" color="inherit">
            {IP2LOCATION_URL}
          </Link>
        </bdi>
      </Typography>
      {endOthers.isSuccess && (
        <Alert severity="success" role="status" sx={{ mt: 2 }} data-testid="sessions-ended">
          {words.endedOthers(endOthers.data.ended)}
        </Alert>
      )}
    </Paper>
  );
}
