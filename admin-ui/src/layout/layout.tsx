import { type ReactNode } from 'react';
import { Layout } from 'react-admin';
import { KupaAppBar } from './app-bar';
import { ErrorPage } from './error-page';
import { KupaMenu } from './menu';

export function KupaLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={KupaAppBar} menu={KupaMenu} error={ErrorPage}>
      {children}
    </Layout>
  );
}
