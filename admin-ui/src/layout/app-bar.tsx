import LogoutIcon from '@mui/icons-material/Logout';
import SecurityIcon from '@mui/icons-material/Security';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import {
  AppBar,
  ConfigurableClasses,
  LoadingIndicator,
  Logout,
  TitlePortal,
  useTranslate,
  useUserMenu,
} from 'react-admin';
import { Link } from 'react-router';
import { useAdminPath } from '../shared/admin-path';
import { mirrorInRtl } from '../shared/mirror-in-rtl';
import { TWO_FACTOR_PATH } from '../two-factor/two-factor-page';
import { LanguageToggle } from './language-toggle';
import { ThemeMenu } from './theme-menu';
import { KupaUserMenu } from './user-menu';

/** The staff member's own two-factor sign-in screen, first in the user menu. */
function TwoFactorMenuItem() {
  const translate = useTranslate();
  const adminPath = useAdminPath();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      component={Link}
      to={adminPath(TWO_FACTOR_PATH)}
      onClick={() => userMenu?.onClose()}
      data-testid="menu-two-factor"
    >
      <ListItemIcon>
        <SecurityIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('kupa.two_factor.menu')}</ListItemText>
    </MenuItem>
  );
}

/**
 * react-admin portals each page's title into the bar's `h1` inside a wrapper of its own (an `inline-block`, for
 * the title's preferences editor). An inline-block is as wide as its text, whatever the `h1` allows, so a long title
 * ran on under the bar's buttons (only clipped, with no ellipsis). Held to the `h1`'s width, it ends in an ellipsis;
 * the class raises the rule above the wrapper's own `display`.
 */
const TITLE_WRAPPER = {
  [`& > *, & > .${ConfigurableClasses.root}`]: {
    display: 'block',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
} as const;

/**
 * The app bar with our own toolbar: react-admin's locale menu switches in place, but a language change here must
 * reload the page (direction and caches start over), and its theme toggle has no "system" choice. The page's title
 * is the page's one `h1`; on a phone the language toggle and the user menu shrink to icons so every control fits.
 */
export function KupaAppBar() {
  return (
    <AppBar
      userMenu={
        <KupaUserMenu>
          <TwoFactorMenuItem />
          <Logout icon={<LogoutIcon sx={mirrorInRtl} />} />
        </KupaUserMenu>
      }
      toolbar={
        <>
          <LanguageToggle />
          <ThemeMenu />
          <LoadingIndicator />
        </>
      }
    >
      <TitlePortal component="h1" sx={TITLE_WRAPPER} />
    </AppBar>
  );
}
