import { type ReactNode } from 'react';
import { Layout } from 'react-admin';
import { KupaAppBar } from './app-bar';
import { ErrorPage } from './error-page';
import { KupaMenu } from './menu';

/**
 * react-admin's layout, held to the window's width: its own root is at least as wide as its content, so one wide
 * element (a row of tabs, a long account id) made the whole console scroll sideways on a phone. Held in, wide
 * content scrolls inside its own box (tables, tabs) or wraps.
 */
const HELD_TO_WINDOW = { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } };

export function KupaLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={KupaAppBar} menu={KupaMenu} error={ErrorPage} sx={HELD_TO_WINDOW}>
      {children}
    </Layout>
  );
}
