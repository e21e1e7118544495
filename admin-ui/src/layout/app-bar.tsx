import { AppBar, LoadingIndicator, TitlePortal } from 'react-admin';
import { LanguageToggle } from './language-toggle';
import { ThemeMenu } from './theme-menu';

/**
 * The app bar with our own toolbar: react-admin's locale menu switches in place, but a language change here must
 * reload the page (direction and caches start over), and its theme toggle has no "system" choice.
 */
export function KupaAppBar() {
  return (
    <AppBar
      toolbar={
        <>
          <LanguageToggle />
          <ThemeMenu />
          <LoadingIndicator />
        </>
      }
    >
      <TitlePortal />
    </AppBar>
  );
}
