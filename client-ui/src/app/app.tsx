import { useState } from 'react';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AppThemeProvider } from '../lib/theme/app-theme-provider';
import { ToastContainer } from '../lib/toast/toast-container';
import { createAppRouter } from './router';

export interface AppProps {
  queryClient: QueryClient;
  /** Tests pass a memory history; the browser build uses the default browser history. */
  history?: RouterHistory;
}

export function App({ queryClient, history }: AppProps) {
  const [router] = useState(() => createAppRouter({ queryClient }, history));
  return (
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <RouterProvider router={router} />
        <ToastContainer />
      </AppThemeProvider>
    </QueryClientProvider>
  );
}
