import { CacheProvider } from '@emotion/react';
import { type UserRole } from '@kupa/proto';
import { useMemo } from 'react';
import { Admin, CustomRoutes, Resource, type ResourceProps } from 'react-admin';
import { createBrowserRouter, Route, RouterProvider } from 'react-router';
import { activityLog } from './activity-log';
import { clients } from './clients';
import { staff } from './staff';
import { Dashboard } from './dashboard';
import { CATALOGUES, createI18nProvider } from './i18n/i18n-provider';
import { currentLang, directionOf } from './i18n/language';
import { createTranslate, type Text, TextContext } from './i18n/text';
import { KupaLayout } from './layout/layout';
import { ACCOUNT_HISTORY_PATH } from './ledger/account-paths';
import { LoginPage } from './layout/login-page';
import { NotFoundPage } from './layout/not-found';
import { packagesFor } from './packages';
import { payments } from './payments';
import { promoCodes } from './promo-codes';
import { broadcasts } from './broadcasts';
import { vouchers } from './vouchers';
import { depositClaims } from './deposit-claims';
import { bulkOperations } from './bulk-operations';
import { authProvider } from './providers/auth-provider';
import { dataProvider } from './providers/data-provider';
import { createRouterProvider } from './providers/router-provider';
import { canReadLedger, type ResourceName, resourcesForRole } from './resources';
import { lazyPage } from './shared/lazy-page';
import { subscriptionsFor } from './subscriptions';
import { TWO_FACTOR_PATH, TwoFactorPage } from './two-factor/two-factor-page';
import { createDirectionCache } from './theme/emotion-cache';
import { useThemeMode } from './theme/theme-mode';
import { createThemes } from './theme/themes';

type ResourceDefinition = Omit<ResourceProps, 'name'>;

const AccountHistoryPage = lazyPage(() => import('./ledger/account-history-page'), 'AccountHistoryPage');

/**
 * Each resource's pages; packages and subscriptions depend on the role, since only admins get the packages' create and
 * edit pages and the subscriptions list.
 */
const RESOURCES: Record<ResourceName, ResourceDefinition | ((role: UserRole | null) => ResourceDefinition)> = {
  clients,
  subscriptions: subscriptionsFor,
  payments,
  'deposit-claims': depositClaims,
  vouchers,
  packages: packagesFor,
  'promo-codes': promoCodes,
  broadcasts,
  'activity-log': activityLog,
  'bulk-operations': bulkOperations,
  staff,
};

function definitionOf(name: ResourceName, role: UserRole | null): ResourceDefinition {
  const definition = RESOURCES[name];
  return typeof definition === 'function' ? definition(role) : definition;
}

// The language (and so the direction) is fixed for the life of the page: switching reloads it.
const lang = currentLang();
const direction = directionOf(lang);
const emotionCache = createDirectionCache(direction);
const i18nProvider = createI18nProvider(lang);
// The same catalogue for the screens shared with the sign-in screen, which read it without react-admin.
const text: Text = { lang, translate: createTranslate(CATALOGUES[lang]) };
const themes = createThemes(direction);

/** The console is mounted under this path; the server serves `index.html` for every route below it. */
export const BASENAME = '/admin';

export function KupaAdmin() {
  const { resolved } = useThemeMode();
  // Both slots get the resolved theme: the choice (light, dark or system) is ours, stored under `ui-theme`, and
  // react-admin's own light/dark store must not override it.
  const theme = useMemo(() => themes[resolved], [resolved]);
  return (
    <CacheProvider value={emotionCache}>
      <TextContext.Provider value={text}>
        <Admin
          basename={BASENAME}
          routerProvider={routerProvider}
          disableTelemetry
          dashboard={Dashboard}
          requireAuth
          dataProvider={dataProvider}
          authProvider={authProvider}
          i18nProvider={i18nProvider}
          layout={KupaLayout}
          loginPage={LoginPage}
          catchAll={NotFoundPage}
          theme={theme}
          darkTheme={theme}
          defaultTheme="light"
        >
          {(permissions: UserRole | null) => (
            <>
              {resourcesForRole(permissions).map((name) => (
                <Resource key={name} name={name} {...definitionOf(name, permissions)} />
              ))}
              <CustomRoutes>
                {canReadLedger(permissions) ? (
                  <Route path={ACCOUNT_HISTORY_PATH} element={<AccountHistoryPage />} />
                ) : null}
                <Route path={TWO_FACTOR_PATH} element={<TwoFactorPage />} />
              </CustomRoutes>
            </>
          )}
        </Admin>
      </TextContext.Provider>
    </CacheProvider>
  );
}

/**
 * react-admin's own router is a hash router, which would put routes after a `#` (`/admin/#/clients`). The console
 * wants real paths (`/admin/clients/:id/show`), so it runs inside a browser data router, the kind react-admin
 * recognises and joins instead of creating its own; `basename` on `<Admin>` makes every link it builds start with
 * `/admin`.
 */
const router = createBrowserRouter([{ path: `${BASENAME}/*`, element: <KupaAdmin /> }]);

/** react-admin's navigation, kept from pulling the user back to a page they left (see createRouterProvider). */
const routerProvider = createRouterProvider(() => router.state.location.pathname);

export function App() {
  return <RouterProvider router={router} />;
}
