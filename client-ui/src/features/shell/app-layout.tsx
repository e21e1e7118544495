import { useDeferredValue, useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { isStaffRole } from '@kupa/proto';
import { useMe } from '../../lib/api/use-me';
import { authApi } from '../../lib/api/endpoints';
import { Outlet } from '@tanstack/react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import MenuIcon from '@mui/icons-material/Menu';
import { useT } from '../../lib/i18n/i18n';
import { useUserStore } from '../../lib/stores/user-store';
import { useViewAs } from '../view-as/use-view-as';
import { VIEW_AS_BANNER_SPACE, ViewAsBanner, ViewAsEnded } from '../view-as/view-as-banner';
import { NotificationBell } from '../notifications/notification-bell';
import { DepositWatcher } from '../payments/deposit-watcher';
import { Balance } from './balance';
import { Sidebar } from './sidebar';
import { ThemeSwitcher } from './theme-switcher';

const DRAWER_WIDTH = 248;
// Room at the end of the app bar for the language toggle, which is fixed to the top corner of every screen and
// shrinks to an icon on narrow screens.
const LANG_TOGGLE_SPACE = { xs: '52px', sm: '120px' };

/** The authenticated frame: app bar (balance, theme; the language toggle sits in its corner), sidebar, content. */
export function AppLayout() {
  const { t } = useT();
  const role = useUserStore((state) => state.userRole);
  const [mobileOpen, setMobileOpen] = useState(false);
  const { data: me } = useMe();
  const navigate = useNavigate();
  const viewAs = useViewAs();
  // The screen inside the frame renders after the frame's first commit, in a render React may interrupt: the router
  // shows a signed-in screen by a store update, which React renders in one uninterruptible task, and the frame and the
  // first screen together made one of 530 to 620 ms on a phone (docs/benchmarks.md). Later navigations are unchanged.
  const screenShown = useDeferredValue(true, false);
  // On a phone the permanent sidebar is hidden (the menu button opens its own drawer): it is not rendered there, so
  // the first screen does not build and style a navigation no one sees.
  const phone = useMediaQuery(useTheme().breakpoints.down('md'), { noSsr: true });
  // A role staff changed applies at once: the server already answers by it. A client made staff belongs to the staff
  // console, and is signed out here with the notice that says so; a client made ambassador (or back) stays.
  useEffect(() => {
    if (!me || !role || me.role === role) return;
    if (viewAs.status !== 'none') {
      // A staff member's view follows the client's role too, but never signs anyone out.
      if (!isStaffRole(me.role)) useUserStore.getState().setRole(me.role);
      return;
    }
    if (isStaffRole(me.role)) {
      authApi.logout().catch(() => undefined);
      useUserStore.getState().clear();
      void navigate({ to: '/login', search: { notice: 'staff' } });
    } else {
      useUserStore.getState().setRole(me.role);
    }
  }, [me, role, navigate, viewAs.status]);
  if (!role) return null;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {/* Every screen hears about a deposit that settles while the app is open. */}
      <DepositWatcher />
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={t('nav.open')}
            data-testid="nav-open"
            onClick={() => setMobileOpen(true)}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Typography
            variant="h6"
            component="div"
            // Hidden on a phone but still in the row: without a zero minimum width it kept the width of its text and,
            // with the wider gaps, pushed the theme switcher under the language toggle on a 360 to 390 px screen.
            sx={{
              flexGrow: 1,
              minWidth: 0,
              overflow: 'hidden',
              fontWeight: 700,
              visibility: { xs: 'hidden', sm: 'visible' },
            }}
          >
            {t('app.name')}
          </Typography>
          <Stack
            direction="row"
            spacing={{ xs: 1, sm: 1.5 }}
            sx={{ alignItems: 'center', paddingInlineEnd: LANG_TOGGLE_SPACE }}
          >
            <Balance />
            <NotificationBell />
            <ThemeSwitcher />
          </Stack>
        </Toolbar>
      </AppBar>
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={() => setMobileOpen(false)}
        ModalProps={{ keepMounted: false }}
        // MUI makes the open drawer's paper a dialog; a dialog needs a name.
        slotProps={{ paper: { 'aria-label': t('nav.label') } }}
        sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
      >
        <Toolbar />
        {mobileOpen && <Sidebar role={role} onNavigate={() => setMobileOpen(false)} />}
      </Drawer>
      {!phone && (
        <Drawer
          variant="permanent"
          sx={{
            display: { xs: 'none', md: 'block' },
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          <Toolbar />
          <Sidebar role={role} />
        </Drawer>
      )}
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          p: { xs: 2, sm: 3 },
          minWidth: 0,
          ...(viewAs.status === 'none' ? {} : { pb: VIEW_AS_BANNER_SPACE }),
        }}
      >
        <Toolbar />
        {viewAs.status === 'ended' ? <ViewAsEnded /> : screenShown && <Outlet />}
      </Box>
      {viewAs.status !== 'none' && <ViewAsBanner session={viewAs.session} ended={viewAs.status === 'ended'} />}
    </Box>
  );
}
