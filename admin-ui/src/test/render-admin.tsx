import { type Language, type UserRole } from '@kupa/proto';
import { render } from '@testing-library/react';
import { type ReactNode } from 'react';
import {
  AdminContext,
  memoryStore,
  Notification,
  type RaRecord,
  RecordContextProvider,
  ResourceContextProvider,
  type Store,
  TestMemoryRouter,
} from 'react-admin';
import { CATALOGUES, createI18nProvider } from '../i18n/i18n-provider';
import { createTranslate, TextContext } from '../i18n/text';
import { authProvider } from '../providers/auth-provider';
import { dataProvider } from '../providers/data-provider';
import { session } from '../providers/session';

export interface AdminRenderOptions {
  lang?: Language;
  resource?: string;
  record?: RaRecord;
  /** Give react-admin the real auth provider, so that permissions come from the signed-in session's role. */
  withAuth?: boolean;
  /** The console address (with the `/admin` prefix) the memory router starts at; `/admin` unless told. */
  path?: string;
  onLocation?(pathname: string): void;
  /** Render react-admin's toasts, for tests that read a notification. */
  notifications?: boolean;
  /**
   * What react-admin remembers between visits (list parameters and the like). Each render gets an empty store unless
   * told: react-admin's default one is shared by a whole test file, so a sort or page chosen in one test would
   * otherwise be the starting point of the next.
   */
  store?: Store;
}

/**
 * Renders a screen the way the console does, with the real data provider (so only `fetch` is faked) and the real
 * catalogues, inside whatever resource, record and address the screen expects.
 */
export function renderInAdmin(ui: ReactNode, options: AdminRenderOptions = {}) {
  const {
    lang = 'he',
    resource,
    record,
    withAuth = false,
    path = '/admin',
    onLocation,
    notifications = false,
    store = memoryStore(),
  } = options;
  let tree = ui;
  if (record) tree = <RecordContextProvider value={record}>{tree}</RecordContextProvider>;
  if (resource) tree = <ResourceContextProvider value={resource}>{tree}</ResourceContextProvider>;
  tree = (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={withAuth ? authProvider : undefined}
      i18nProvider={createI18nProvider(lang)}
      basename="/admin"
      store={store}
    >
      <TextContext.Provider value={{ lang, translate: createTranslate(CATALOGUES[lang]) }}>
        {tree}
        {notifications ? <Notification /> : null}
      </TextContext.Provider>
    </AdminContext>
  );
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(location) => onLocation?.(location.pathname)}>
      {tree}
    </TestMemoryRouter>,
  );
}

export function signInAs(role: UserRole): void {
  session.set({ accessToken: 't', userUuid: 's-1', email: 'staff@example.com', userRole: role });
}
