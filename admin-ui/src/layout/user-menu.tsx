import AccountCircle from '@mui/icons-material/AccountCircle';
import { Box, Button, Menu } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { type ReactNode, useCallback, useId, useMemo, useState } from 'react';
import { useGetIdentity, UserMenuContextProvider, useTranslate } from 'react-admin';

/**
 * The signed-in staff member's menu. react-admin's own shows the member's name but is named "Profile" for screen
 * readers, and a control's accessible name must hold its visible text; this one is named "<name>: account menu". On
 * a phone only the icon shows.
 */
export function KupaUserMenu({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const onClose = useCallback(() => setAnchor(null), []);
  const context = useMemo(() => ({ onClose }), [onClose]);
  const menuId = useId();
  const name = identity?.fullName ?? '';
  const open = anchor !== null;
  return (
    <>
      <Button
        color="inherit"
        data-testid="user-menu"
        aria-label={name ? translate('kupa.user_menu.named', { name }) : translate('kupa.user_menu.label')}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ minWidth: 0, textTransform: 'none', marginInlineStart: 0.5 }}
      >
        <AccountCircle />
        {name ? (
          <Box
            component="span"
            sx={(theme) => ({ marginInlineStart: 1, [theme.breakpoints.down('sm')]: visuallyHidden })}
          >
            {name}
          </Box>
        ) : null}
      </Button>
      <UserMenuContextProvider value={context}>
        <Menu
          id={menuId}
          disableScrollLock
          anchorEl={anchor}
          open={open}
          onClose={onClose}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {children}
        </Menu>
      </UserMenuContextProvider>
    </>
  );
}
