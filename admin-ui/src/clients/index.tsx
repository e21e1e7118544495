import PeopleIcon from '@mui/icons-material/People';
import { reactRouterProvider, type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const ClientList = lazyPage(() => import('./client-list'), 'ClientList');
const ClientShow = lazyPage(() => import('./client-show'), 'ClientShow');

// react-admin's own reference to the router's `Route`: the `<Routes>` inside a resource accepts only that very
// component, and a test environment may load a second copy of the router package under a plain import.
const { Route } = reactRouterProvider;

export const clients: Omit<ResourceProps, 'name'> = {
  list: ClientList,
  show: ClientShow,
  icon: PeopleIcon,
  recordRepresentation: 'email',
  // The product's address of a client is `/clients/{id}` (docs/product.md, Screens); react-admin's own is
  // `/clients/{id}/show`. Both open the detail, and its tabs, instead of the first falling back to the list.
  children: <Route path=":id/*" element={<ClientShow />} />,
};
