import { type Theme, useMediaQuery } from '@mui/material';
import { type ReactNode } from 'react';
import { Layout, Sidebar, type SidebarProps, useTranslate } from 'react-admin';
import { KupaAppBar } from './app-bar';
import { ErrorPage } from './error-page';
import { KupaMenu } from './menu';

/**
 * react-admin's layout, held to the window's width: its own root is at least as wide as its content, so one wide
 * element (a row of tabs, a long account id) made the whole console scroll sideways on a phone. Held in, wide
 * content scrolls inside its own box (tables, tabs) or wraps.
 */
const HELD_TO_WINDOW = {
  minWidth: 0,
  '& .RaLayout-content': { minWidth: 0 },
  // A list with many columns (subscriptions) scrolls inside its card instead of widening the page.
  '& .RaList-main': { minWidth: 0 },
  // (react-admin's list styles overrule an overflow on its content card, so the table's own wrapper scrolls.)
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
};

/**
 * react-admin's sidebar. On an extra-small screen it is a temporary drawer, whose paper MUI makes a dialog, and a
 * dialog needs a name; the permanent sidebar is a plain box, where a name is not allowed.
 */
function KupaSidebar(props: SidebarProps) {
  const translate = useTranslate();
  const temporary = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Sidebar
      {...props}
      slotProps={temporary ? { paper: { 'aria-label': translate('kupa.navigation.label') } } : undefined}
    />
  );
}

export function KupaLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={KupaAppBar} menu={KupaMenu} sidebar={KupaSidebar} error={ErrorPage} sx={HELD_TO_WINDOW}>
      {children}
    </Layout>
  );
}
