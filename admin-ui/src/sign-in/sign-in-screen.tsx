import { CacheProvider } from '@emotion/react';
import { CssBaseline } from '@mui/material';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { useMemo } from 'react';
import { directionOf } from '../i18n/language';
import { type Text, TextContext } from '../i18n/text';
import { authProvider } from '../providers/auth-provider';
import { createDirectionCache } from '../theme/emotion-cache';
import { useThemeMode } from '../theme/theme-mode';
import { createThemes } from '../theme/themes';
import { SignInForm } from './sign-in-form';

/**
 * The first screen of a signed-out staff member, without react-admin: the console's theme, direction and texts around
 * the sign-in form. `onSignedIn` loads the console, which finds the session the form stored.
 */
export function SignInScreen({ text, onSignedIn }: { text: Text; onSignedIn(): void }) {
  const direction = directionOf(text.lang);
  const cache = useMemo(() => createDirectionCache(direction), [direction]);
  const themes = useMemo(() => createThemes(direction), [direction]);
  const { resolved } = useThemeMode();
  const theme = useMemo(() => createTheme(themes[resolved]), [themes, resolved]);
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <TextContext.Provider value={text}>
          <SignInForm
            signIn={async (params) => {
              await authProvider.login(params);
              onSignedIn();
            }}
          />
        </TextContext.Provider>
      </ThemeProvider>
    </CacheProvider>
  );
}
